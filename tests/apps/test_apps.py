"""Applications of 7.5: writing with the Puma, the walking robot."""

import numpy as np
import pytest

from rvc.apps import gait, hershey_strokes, ink_fraction, letter_path, walking_gait, walking_legs
from rvc.kinematics.ikine6s import ikine6s
from rvc.models import leg, puma560


def test_hershey_B():
    B = hershey_strokes("B")
    assert len(B) == 3                                   # bar, upper bowl, lower bowl
    allpts = np.vstack(B)
    assert allpts[:, 1].min() == 0 and allpts[:, 1].max() == pytest.approx(1.0)
    assert allpts[:, 0].min() == 0 and 0.5 < allpts[:, 0].max() < 0.8
    np.testing.assert_allclose(B[0], [[0, 1], [0, 0]])
    B4 = hershey_strokes("B", scale=0.25)
    np.testing.assert_allclose(np.vstack(B4), 0.25 * allpts)
    word = hershey_strokes("RVC")
    assert np.vstack(word)[:, 0].max() > 2               # three letters side by side
    with pytest.raises(ValueError, match="font"):
        hershey_strokes("B", font="nosuchfont")
    with pytest.raises(ValueError, match="text"):
        hershey_strokes("")


def test_hershey_letters_stand_upright():
    """The y-axis of the font points up: the bar of a T is at the top, the foot of an L at the bottom."""
    T = hershey_strokes("T", scale=0.2)
    flat = [s for s in T if np.ptp(s[:, 1]) < 1e-12]
    assert len(flat) == 1 and flat[0][0, 1] == pytest.approx(0.2)
    L = hershey_strokes("L", scale=0.2)
    foot = [s for s in L if np.ptp(s[:, 1]) < 1e-12]
    assert len(foot) == 1 and foot[0][0, 1] == pytest.approx(0.0)


def test_ink_fraction_counts_only_pieces_with_both_ends_down():
    """A pen that touches the table at every other sample leaves no ink at all, and one that is
    down for the first half of a stroke inks exactly that half."""
    lp = letter_path([np.array([[0.0, 0.0], [0.3, 0.0]])], dt=0.02, tacc=0.0)
    n = len(lp.t)
    bouncing = lp.xyz.copy()
    bouncing[1::2, 2] = 0.01
    np.testing.assert_array_equal(ink_fraction(lp, pen=bouncing), 0)
    half = lp.xyz.copy()
    x = half[:, 0]
    half[x > 0.15 + 1e-12, 2] = 0.01                        # lifted beyond the middle
    down_len = np.sum(np.diff(x)[(x[:-1] <= 0.15 + 1e-12) & (x[1:] <= 0.15 + 1e-12)])
    np.testing.assert_allclose(ink_fraction(lp, pen=half), down_len / 0.3, atol=1e-12)
    assert n > 10


def test_letter_path_pen_moves():
    B = hershey_strokes("B", scale=0.25)
    lp = letter_path(B, z_up=0.2, settle=False)          # the notes' path
    # every stroke point is a via point with the pen down; pen-up moves between strokes
    down = lp.via[lp.via[:, 2] == 0]
    assert len(down) == sum(len(s) for s in B)
    assert np.sum(lp.via[:, 2] == 0.2) == 2 * (len(B) - 1)
    # settling: the landing and the last point of every inner stroke end are repeated
    ls = letter_path(B, z_up=0.2)
    assert np.sum(ls.via[:, 2] == 0) == len(down) + 2 * (len(B) - 1)
    assert np.sum(ls.via[:, 2] == 0.2) == 2 * (len(B) - 1)
    np.testing.assert_array_equal(np.unique(ls.via, axis=0), np.unique(lp.via, axis=0))
    assert np.allclose(lp.xyz[0], lp.via[0]) and np.allclose(lp.xyz[-1], lp.via[-1])
    assert np.all(np.abs(np.diff(lp.xyz, axis=0)) <= 0.5 * 0.02 + 1e-12)   # qdmax 0.5 m/s
    np.testing.assert_allclose(lp.T[:, :3, 3], lp.xyz + [0.6, 0, 0])
    np.testing.assert_allclose(lp.T[0, :3, :3], [[-1, 0, 0], [0, 1, 0], [0, 0, -1]], atol=1e-12)


def _inked_trace(pen, z_tol=1e-3):
    """The pieces (A -> B) of a pen path whose both ends are on the surface."""
    down = pen[:, 2] < z_tol
    both = down[:-1] & down[1:]
    return pen[:-1][both, :2], pen[1:][both, :2]


def _distance_to_trace(points, A, B):
    AB = B - A
    s = np.einsum("nmk,mk->nm", points[:, None] - A[None], AB) / np.maximum((AB ** 2).sum(1), 1e-30)
    C = A[None] + np.clip(s, 0, 1)[..., None] * AB[None]
    return np.linalg.norm(points[:, None] - C, axis=2).min(axis=1)


@pytest.mark.parametrize("text", ["B", "V", "HI", "RVC", "ao"])
def test_every_stroke_is_inked_over_its_whole_length(text):
    strokes = hershey_strokes(text, scale=0.25)
    lp = letter_path(strokes)
    f = ink_fraction(lp)
    assert f.shape == (len(strokes),) and np.all(f >= 0.99), f
    # independently of ink_fraction: every point of every stroke (every 0.5 mm) lies within
    # 3 mm of the inked trace (the blends round the corners off by less than that)
    A, Bp = _inked_trace(lp.xyz)
    for s in strokes:
        d = np.linalg.norm(np.diff(s, axis=0), axis=1)
        pts = np.vstack([np.linspace(s[i], s[i + 1], max(2, int(d[i] / 5e-4))) for i in range(len(d))])
        assert _distance_to_trace(pts, A, Bp).max() < 3e-3


def test_the_notes_path_writes_stroke_ends_in_the_air():
    # the notes' path (no settling): the blends lift the pen before the end of each stroke
    strokes = hershey_strokes("HI", scale=0.25)
    lp = letter_path(strokes, settle=False)
    f = ink_fraction(lp)
    assert np.all(f < 0.9) and f.min() < 0.7
    # ... which the distance test sees too: a stroke end is more than a centimetre from any ink
    A, Bp = _inked_trace(lp.xyz)
    ends = np.array([s[k] for s in strokes for k in (0, -1)])
    assert _distance_to_trace(ends, A, Bp).max() > 0.01
    # ink_fraction itself: a pen that never touches the surface leaves nothing, one always on it all
    up = lp.xyz + [0, 0, 0.01]
    np.testing.assert_array_equal(ink_fraction(lp, pen=up), 0)
    flat = lp.xyz * [1, 1, 0]
    np.testing.assert_array_equal(ink_fraction(lp, pen=flat), 1)
    with pytest.raises(ValueError, match="pen"):
        ink_fraction(lp, pen=lp.xyz[:-1])
    with pytest.raises(ValueError, match="lp"):
        ink_fraction(lp.xyz)


def test_letter_windows_cover_the_strokes_in_order():
    lp = letter_path(hershey_strokes("RVC", scale=0.1))
    w = lp.window
    assert w[0, 0] == 0 and w[-1, 1] == pytest.approx(lp.t[-1])
    assert np.all(w[:, 1] > w[:, 0]) and np.all(w[1:, 0] >= w[:-1, 1])
    # the pen lands on and lifts off the stroke's ends vertically: at the start and the end of
    # each window it is right above them
    for s, (t0, t1) in zip(lp.strokes, w):
        k0, k1 = np.searchsorted(lp.t, [t0 - 1e-9, t1 - 1e-9])
        np.testing.assert_allclose(lp.xyz[[k0, k1], :2], s[[0, -1]], atol=1e-12)


def test_letter_drawn_by_puma():
    p560 = puma560()
    lp = letter_path(hershey_strokes("B", scale=0.25))
    sol = ikine6s(p560, lp.T)
    assert sol.success.all()
    np.testing.assert_allclose(p560.fkine(sol.q), lp.T, atol=1e-9)
    step = np.angle(np.exp(1j * np.diff(sol.q, axis=0)))                 # modulo 2 pi
    assert np.abs(step).max() < 0.2                                       # a smooth joint path
    # what the robot writes (forward kinematics of its joints), not only the planned path
    pen = p560.fkine(sol.q)[:, :3, 3] - [0.6, 0, 0]
    assert np.all(ink_fraction(lp, pen=pen) >= 0.99)


def test_walking_gait_stance():
    x = walking_gait()
    assert x.shape == (400, 3)
    v = np.diff(x, axis=0) / 0.01
    # the walking stroke: on the ground (z = zd), moving back at (xf - xb) / 3 s
    stance = slice(5, 295)
    assert np.all(x[stance, 2] == 0.05)
    np.testing.assert_allclose(v[stance.start:stance.stop - 1, 0], -0.1 / 3, atol=1e-12)
    assert x[:, 2].min() == pytest.approx(0.02)                           # raised to zu
    # the cycle closes smoothly: sample 0 follows sample 399 as the next lap would
    x3 = walking_gait()
    np.testing.assert_allclose(np.diff(np.vstack([x3, x3]), axis=0).max(axis=0),
                               np.diff(x, axis=0).max(axis=0), atol=1e-12)
    np.testing.assert_allclose(x[0], x[-1] + (x[-1] - x[-2]), atol=2e-4)


def test_gait_phase_and_flip():
    qc = np.arange(12.0).reshape(4, 3)
    np.testing.assert_array_equal(gait(qc, 3, 2), qc[1])
    np.testing.assert_array_equal(gait(qc, np.arange(4), 1)[:, 0], [3, 6, 9, 0])
    assert gait(qc, 0, 0, flip=True)[0] == -0.0 and gait(qc, 1, 0, flip=True)[0] == -3


def test_four_legs():
    lg = leg()
    wl = walking_legs(lg)
    assert wl.q.shape == (400, 4, 3) and wl.success.all()
    np.testing.assert_allclose(lg.fkine(wl.qcycle)[:, :3, 3], wl.xcycle, atol=1e-8)
    F = wl.feet(lg)
    lift = np.abs(F[..., 2] - 0.05)
    assert np.mean(np.sum(lift < 1e-6, axis=1) >= 3) >= 0.9
    assert np.sort(lift, axis=1)[:, 2].max() < 1.2e-3
    # feet on the ground all move backwards (body moves forward) at the same speed
    vx = np.diff(F[..., 0], axis=0) / 0.01
    ground = (lift[:-1] < 1e-6) & (lift[1:] < 1e-6)
    inner = ground & (np.abs(vx + 0.1 / 3) < 1e-3)
    assert inner.sum() > 0.6 * ground.sum()
    # hips at the body corners
    np.testing.assert_allclose(wl.bases[:, :3, 3], [[0, 0, 0], [-0.2, 0, 0], [-0.2, -0.1, 0], [0, -0.1, 0]])
    with pytest.raises(ValueError, match="xcycle"):
        walking_legs(lg, np.zeros((5, 2)))
