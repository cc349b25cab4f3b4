"""Options that switch part of a computation off or change its unit: the switch must take effect.

A mask weight of 0 removes that component from the error that IK stops on; ``unit="deg"``
converts every angle the caller gives, the initial guess included.
"""

import numpy as np

from rvc import ik_pose_error, ikine_2link_numeric, transl, trotz


def test_a_zero_mask_weight_removes_that_component_from_the_error():
    T, Tstar = transl(0.1, 0, 0) @ trotz(0.2), np.eye(4)
    _, et, er = ik_pose_error(T, Tstar, mask=[1, 1, 0, 0, 0, 0])
    assert er == 0.0 and np.isclose(et, 0.1, rtol=1e-12)
    _, et, er = ik_pose_error(T, Tstar, mask=[0, 0, 0, 0, 0, 1])
    assert et == 0.0 and np.isclose(er, 0.2, rtol=1e-12)
    _, et, er = ik_pose_error(T, Tstar)
    assert np.isclose(et, 0.1, rtol=1e-12) and np.isclose(er, 0.2, rtol=1e-12)


def test_the_initial_guess_is_read_in_degrees_with_unit_deg():
    q0 = np.array([90.0, -90.0])
    in_degrees = ikine_2link_numeric(1, 1, 0.6, 0.7, q0=q0, unit="deg")
    in_radians = ikine_2link_numeric(1, 1, 0.6, 0.7, q0=np.deg2rad(q0))
    np.testing.assert_allclose(in_degrees, np.rad2deg(in_radians), atol=1e-5)
    assert np.all(np.abs(in_degrees) <= 180)
