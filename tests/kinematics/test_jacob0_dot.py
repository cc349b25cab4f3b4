"""jacob0_dot: the time derivative of the world-frame Jacobian, as a matrix.

Against central differences of jacob0 along qd, and its product with qd against jacob_dot, on DH,
modified-DH, ETS and prismatic chains with a base and a tool; batched like jacob0.
"""

import numpy as np
import pytest

import rvc
from support import prismatic_mdh, puma_ets, with_base_tool

ROBOTS = {
    "puma560": rvc.models.puma560,
    "puma560 base and tool": lambda: with_base_tool(rvc.models.puma560()),
    "puma560_mdh": rvc.models.puma560_mdh,
    "puma ETS": lambda: puma_ets(0.3),
    "stanford (prismatic)": rvc.models.stanford,
    "prismatic MDH": prismatic_mdh,
    "planar2": rvc.models.planar2,
}


@pytest.mark.parametrize("name", ROBOTS)
def test_jacob0_dot_is_the_derivative_of_jacob0(name):
    robot = ROBOTS[name]()
    rng = np.random.default_rng(len(name))
    q, qd = rng.uniform(-1, 1, (2, robot.n))
    Jd = rvc.jacob0_dot(robot, q, qd)
    h = 1e-6
    fd = (rvc.jacob0(robot, q + h * qd) - rvc.jacob0(robot, q - h * qd)) / (2 * h)
    np.testing.assert_allclose(Jd, fd, atol=1e-8)
    np.testing.assert_allclose(Jd @ qd, rvc.jacob_dot(robot, q, qd), atol=1e-14)


def test_jacob0_dot_batches_and_vanishes_at_rest():
    robot = rvc.models.puma560()
    Q = np.random.default_rng(1).uniform(-1, 1, (3, 6))
    Jd = rvc.jacob0_dot(robot, Q, Q[::-1])
    assert Jd.shape == (3, 6, 6)
    np.testing.assert_allclose(Jd[1], rvc.jacob0_dot(robot, Q[1], Q[1]), atol=1e-15)
    assert not rvc.jacob0_dot(robot, Q[0], np.zeros(6)).any()
