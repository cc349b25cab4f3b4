"""The checks layer: every class of bad input gets a clear error."""

import warnings

import numpy as np
import pytest

from rvc import checks


def test_getarray_accepts_batches_and_rejects_wrong_trailing_shape():
    assert checks.getarray(np.zeros((2, 5, 3, 3)), "R", shape=(3, 3)).shape == (2, 5, 3, 3)
    with pytest.raises(ValueError, match=r"R: expected shape \(3, 3\), got shape \(2, 3, 3\)"):
        checks.getarray(np.zeros((2, 3, 3)), "R", shape=(3, 3), batch=False)
    with pytest.raises(ValueError, match=r"^T: expected shape \(\.\.\., 4, 4\), got shape \(3, 3\)$"):
        checks.getarray(np.eye(3), "T", shape=(4, 4))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_is_named(bad):
    with pytest.raises(ValueError, match=r"q: expected finite numbers, got NaN or inf at index \(2,\)"):
        checks.getarray([0.0, 1.0, bad], "q")


@pytest.mark.parametrize("value, kind", [("abc", TypeError), ([1, "a"], TypeError),
                                         (object(), TypeError)])
def test_wrong_type(value, kind):
    with pytest.raises(kind, match="x: expected a number"):
        checks.getarray(value, "x")


def test_vectors_and_scalars():
    assert checks.getvector(np.ones((3, 1)), "v", 3).shape == (3,)
    with pytest.raises(ValueError, match="v: expected a vector of 3 elements, got shape \\(4,\\)"):
        checks.getvector([1, 2, 3, 4], "v", 3)
    with pytest.raises(ValueError, match="v: expected a vector"):
        checks.getvector(np.ones((2, 2)), "v")
    assert checks.getscalar([[2.5]], "s") == 2.5
    with pytest.raises(ValueError, match="s: expected a scalar, got shape \\(2,\\)"):
        checks.getscalar([1, 2], "s")


def test_units_and_options():
    assert checks.getunit("rad") == "rad"
    for bad in ("radians", "Deg", None, 1):
        with pytest.raises(ValueError, match="unit: expected 'rad' or 'deg'"):
            checks.getunit(bad)
    np.testing.assert_allclose(checks.getangle([180, 90], unit="deg"), [np.pi, np.pi / 2])
    np.testing.assert_allclose(checks.putangle(np.pi, unit="deg"), 180)
    assert checks.putangle(1.0) == 1.0
    with pytest.raises(ValueError, match="order: expected one of 'a', 'b', got 'c'"):
        checks.getoption("c", "order", ("a", "b"))
    with pytest.raises(ValueError, match="got 3"):
        checks.getoption(3, "order", ("a", "b"))


def test_rotation_checks():
    c, s = np.cos(0.3), np.sin(0.3)
    R = np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    assert checks.getrotation(np.stack([R, R.T])).shape == (2, 3, 3)
    with pytest.raises(ValueError, match=r"R: expected an orthonormal matrix .* got 0\.21"):
        checks.getrotation(R * 1.1)
    with pytest.raises(ValueError, match="reflection"):
        checks.getrotation(-np.eye(3))
    with pytest.raises(ValueError, match="reflection"):
        checks.getrotation(np.diag([1.0, -1.0]), dim=2)
    # check=False skips the test; tolerance is stated and honoured
    assert checks.getrotation(R * 1.1, check=False).shape == (3, 3)
    checks.getrotation(R + 1e-8)
    with pytest.raises(ValueError):
        checks.getrotation(R + 1e-4)
    with pytest.raises(ValueError, match="expected finite"):
        checks.getrotation(np.full((3, 3), np.nan), check=False)


def test_pose_checks():
    T = np.eye(4)
    T[:3, 3] = [1, 2, 3]
    assert checks.getpose(T).shape == (4, 4)
    bad = T.copy()
    bad[3, 0] = 0.5
    with pytest.raises(ValueError, match=r"T: expected a homogeneous transform with bottom row \[0, 0, 0, 1\]"):
        checks.getpose(bad)
    skewed = T.copy()
    skewed[0, 1] = 0.5
    with pytest.raises(ValueError, match=r"T \(rotation part\): expected an orthonormal"):
        checks.getpose(skewed)
    with pytest.raises(ValueError, match=r"X: expected shape \(\.\.\., 3, 3\)"):
        checks.getpose(T, "X", dim=2)


def test_nonzero_and_unit_vectors():
    np.testing.assert_allclose(checks.getunitvector([3, 0, 4], "a", 3), [0.6, 0, 0.8])
    with pytest.raises(ValueError, match="a: expected a non-zero vector"):
        checks.getunitvector([0, 0, 1e-15], "a", 3)


def test_warn_singular_is_a_singularity_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        checks.warn_singular("gimbal lock: phi set to 0")
    assert caught and issubclass(caught[0].category, checks.SingularityWarning)
    assert issubclass(checks.SingularityWarning, checks.RVCWarning)


def test_getq_is_the_one_joint_vector_check():
    np.testing.assert_allclose(checks.getq([90, 0.5], 2, [True, False], unit="deg"), [np.pi / 2, 0.5])
    assert checks.getq(0.3, 1).shape == (1,)
    assert checks.getq(np.zeros((4, 3)), 3).shape == (4, 3)
    with pytest.raises(ValueError,
                       match=r"q: expected 3 joint coordinates, shape \(3,\) or \(N, 3\), got shape \(2,\)"):
        checks.getq([1, 2], 3)
    with pytest.raises(ValueError, match="q0: expected finite numbers"):
        checks.getq([1, np.nan], 2, name="q0")
    with pytest.raises(ValueError, match="unit"):
        checks.getq([1, 2], 2, unit="degrees")


def test_getinertia_is_the_one_inertia_rule():
    np.testing.assert_allclose(checks.getinertia([1, 2, 3, 0.1, 0, 0]),
                               [[1, 0.1, 0], [0.1, 2, 0], [0, 0, 3]])
    with pytest.raises(ValueError, match="I: expected a symmetric"):
        checks.getinertia(np.diag([1.0, 2, 3]) + np.triu(np.ones((3, 3)), 1))
    with pytest.raises(ValueError, match="I: expected a positive semi-definite"):
        checks.getinertia(np.diag([1.0, -2, 3]))
    with pytest.raises(ValueError, match="triangle inequality"):
        checks.getinertia([0, 0.35, 0])              # the published Puma's link 1
    # ... which a link accepts: lumped parameters keep only the moments that matter
    np.testing.assert_allclose(checks.getinertia([0, 0.35, 0], triangle=False), np.diag([0, 0.35, 0]))
    with pytest.raises(ValueError, match="J: expected a 3x3 matrix"):
        checks.getinertia([1, 2], "J")
    # a thin rod is a real (singular) body
    np.testing.assert_allclose(checks.getinertia([0, 1, 1]), np.diag([0, 1, 1]))


def test_link_and_rigid_body_share_the_inertia_rule():
    from rvc import Link, euler_rhs

    with pytest.raises(ValueError, match="I: expected a positive semi-definite"):
        Link(I=[-1, 2, 3])                            # accepted before the one rule
    with pytest.raises(ValueError, match="J: expected a positive semi-definite"):
        euler_rhs(np.diag([1.0, -2, 3]), [0, 0, 1])


def test_unit_quaternion_check():
    np.testing.assert_allclose(checks.getunitquaternion([1, 0, 0, 0]), [1, 0, 0, 0])
    with pytest.raises(ValueError, match="q: expected a non-zero quaternion"):
        checks.getunitquaternion([0, 0, 0, 0], check=False)
    with pytest.raises(ValueError, match="use qunit"):
        checks.getunitquaternion([1, 1, 0, 0])
    assert checks.getrotation(np.eye(4), allow_pose=True).shape == (3, 3)
    with pytest.raises(ValueError, match=r"R: expected shape \(\.\.\., 3, 3\) or \(\.\.\., 4, 4\)"):
        checks.getrotation(np.eye(2), allow_pose=True)
