"""Printing robot models as the toolbox does: box tables, numbers, poses.

>>> fmt_deg(np.pi)
'180.0°'
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..shapes import SE3

__all__ = ["box_table", "fmt_num", "fmt_deg", "pose_str"]


def box_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table with box-drawing borders, like the toolbox prints.

    >>> print(box_table(["a", "b"], [[1, 2]]))
    ┌───┬───┐
    │ a │ b │
    ├───┼───┤
    │ 1 │ 2 │
    └───┴───┘
    """
    cols = list(zip(header, *rows))
    w = [max(len(str(c)) for c in col) + 2 for col in cols]

    def line(l, m, r):
        return l + m.join("─" * x for x in w) + r

    def row(cells):
        return "│" + "│".join(str(c).rjust(x - 1) + " "
                              for i, (c, x) in enumerate(zip(cells, w))) + "│"

    out = [line("┌", "┬", "┐"), row(header), line("├", "┼", "┤")]
    out += [row(r) for r in rows]
    out.append(line("└", "┴", "┘"))
    return "\n".join(out)


def fmt_num(x: float) -> str:
    """A number with 6 significant figures, and 0 as ``"0"``.

    >>> fmt_num(0.43180001), fmt_num(0.0)
    ('0.4318', '0')
    """
    return f"{x:.6g}" if x != 0 else "0"


def fmt_deg(x: float) -> str:
    """An angle in radians printed in degrees to 0.1.

    >>> fmt_deg(np.pi / 2)
    '90.0°'
    """
    return f"{math.degrees(x):.1f}°"


def pose_str(T: SE3) -> str:
    """A base or tool pose as the toolbox prints it: translation and ZYX roll-pitch-yaw in degrees.

    >>> pose_str(np.eye(4))
    't = 0, 0, 0'
    """
    t = ", ".join(fmt_num(v) for v in T[:3, 3])
    R = T[:3, :3]
    if np.allclose(R, np.eye(3)):
        return f"t = {t}"
    # ZYX roll-pitch-yaw in degrees, as the toolbox prints a base or tool
    pitch = math.asin(-max(-1.0, min(1.0, R[2, 0])))
    roll = math.atan2(R[2, 1], R[2, 2])
    yaw = math.atan2(R[1, 0], R[0, 0])
    return f"t = {t}; rpy/zyx = {fmt_deg(roll)}, {fmt_deg(pitch)}, {fmt_deg(yaw)}"
