"""Named array shapes for rvc's signatures: what each argument and result holds.

rvc works on plain numpy arrays.  These aliases say, in a signature, what an
array means and how it is shaped, where a bare ``np.ndarray`` would not:
``rotx(theta: Angle) -> SO3`` reads as "an angle (or a batch of them) in, a
rotation matrix (or a batch) out".  They are ``typing.Annotated`` numpy arrays,
so type checkers see ``NDArray[float64]`` and a reader (or ``help()``) sees the
shape.  A leading ``...`` is a batch: any number of leading dimensions.

=================  ==================  =============================================
alias              shape               what it holds
=================  ==================  =============================================
``Angle``          scalar or (...)     radians, unless the call passes ``unit="deg"``
``SO2``            (..., 2, 2)         a rotation in the plane
``SE2``            (..., 3, 3)         a pose in the plane (homogeneous)
``SO3``            (..., 3, 3)         a rotation matrix
``SE3``            (..., 4, 4)         a pose, homogeneous transform
``Vector3``        (..., 3)            a point, an axis, an angular velocity
``Quaternion``     (..., 4)            ``[s, vx, vy, vz]``, scalar first
``Twist6``         (..., 6)            a twist, spatial velocity or wrench, (linear, angular)
``JointVector``    (..., n)            joint coordinates (or rates, torques) of n joints
``Jacobian``       (..., 6, n)         rows (vx vy vz wx wy wz), a column per joint
``Vector2``        (..., 2)            a point or a direction in the plane
``PlanarTwist``    (..., 3)            a twist in the plane ``(vx, vy, omega)``
``DualQuaternion`` (..., 8)            ``[real quaternion, dual quaternion]``
``Skew``           (..., 2, 2) or      so(2) or so(3): a skew-symmetric matrix
                   (..., 3, 3)
``SkewA``          (..., 3, 3) or      se(2) or se(3): an augmented skew matrix
                   (..., 4, 4)
``Inertia``        (..., 3, 3)         an inertia tensor (symmetric, kg m^2)
``TimeVector``     (m,)                m sample times, in seconds
``JointPath``      (m, n)              a row per time step (or via point), a column per joint
=================  ==================  =============================================

>>> import typing
>>> typing.get_args(SE3)[1]
'SE(3): a pose, shape (..., 4, 4)'
"""

from __future__ import annotations

from typing import Annotated

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["ArrayLike", "Angle", "SO2", "SE2", "SO3", "SE3", "Vector3", "Quaternion", "Twist6",
           "JointVector", "Jacobian", "Vector2", "PlanarTwist", "DualQuaternion", "Skew", "SkewA",
           "Inertia", "TimeVector", "JointPath"]

_F = NDArray[np.float64]

Angle = Annotated[float | ArrayLike, "an angle in radians (degrees with unit='deg'), scalar or (...)"]
SO2 = Annotated[_F, "SO(2): a rotation in the plane, shape (..., 2, 2)"]
SE2 = Annotated[_F, "SE(2): a pose in the plane, shape (..., 3, 3)"]
SO3 = Annotated[_F, "SO(3): a rotation matrix, shape (..., 3, 3)"]
SE3 = Annotated[_F, "SE(3): a pose, shape (..., 4, 4)"]
Vector3 = Annotated[_F, "a 3-vector, shape (..., 3)"]
Quaternion = Annotated[_F, "a quaternion [s, vx, vy, vz], shape (..., 4)"]
Twist6 = Annotated[_F, "a twist, spatial velocity or wrench (linear, angular), shape (..., 6)"]
JointVector = Annotated[_F, "joint coordinates, rates or torques, shape (..., n)"]
Jacobian = Annotated[_F, "a Jacobian, rows (vx vy vz wx wy wz), shape (..., 6, n)"]
Vector2 = Annotated[_F, "a 2-vector in the plane, shape (..., 2)"]
PlanarTwist = Annotated[_F, "a twist in the plane (vx, vy, omega), shape (..., 3)"]
DualQuaternion = Annotated[_F, "a dual quaternion [real, dual], shape (..., 8)"]
Skew = Annotated[_F, "so(2) or so(3): a skew-symmetric matrix, shape (..., 2, 2) or (..., 3, 3)"]
SkewA = Annotated[_F, "se(2) or se(3): an augmented skew matrix, shape (..., 3, 3) or (..., 4, 4)"]
Inertia = Annotated[_F, "an inertia tensor (symmetric), shape (..., 3, 3)"]
TimeVector = Annotated[_F, "sample times in seconds, shape (m,)"]
JointPath = Annotated[_F, "a path in joint space, a row per time step or via point, shape (m, n)"]
