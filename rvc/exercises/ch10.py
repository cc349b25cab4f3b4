"""The Chapter 10 exercises (dynamics of elastic parallel manipulators), as data.

Each exercise recomputes its expected value with rvc; its typical mistakes
stand next to their hints, which never reveal the expected value.  The
exercise statements are in ``notebooks/10_elastic_parallel.ipynb``; the
constants below are the ones the statements give.

Tolerances that differ from the policy (``rvc.exercises``): 10.2 and 10.3
take 1e-3 m and 2e-3 m, the heights being found by a search; 10.4 takes
1e-8 absolute and relative (exact linear algebra); 10.5 takes 0.5 %
relative, the stiffness being the root of a model; 10.6 takes 1 % on the
simulated vibration; 10.7 takes 0.5 % relative on both entries, the reach
being found by sampling the line (a 1 mm step is enough).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy.optimize import brentq, minimize_scalar, root

from ..models import delta_robot
from ..parallel import FiveBar, parallel_ikine, parallel_modes, parallel_singularity_map, simulate_move
from . import ArrayAnswer, Custom, Mistake, Numeric, When, read_array

__all__: list[str] = []

# --- the data of the exercise statements ------------------------------------

EX101 = dict(x=(0.06, 0.34), payload=0.3)
EX102 = dict(y=(0.02, 0.40), home=0.40, factor=10.0, atol=1e-3)
EX103 = dict(y=(0.10, 0.55))
EX104 = dict(x=(0.05, 0.38), qe=(0.01, -0.005), qd=(0.5, -2.0, 0.3, 1.0), tau=(0.8, -0.4))
EX105 = dict(frequency=35.0, sag=2e-4, poses=((-0.10, 0.35), (0.0, 0.40), (0.10, 0.30)), rtol=5e-3)
EX106 = dict(x0=(-0.12, 0.36), x1=(0.12, 0.36), durations=(0.20, 0.25, 0.30, 0.35, 0.40),
             after=0.15, dt=0.005, bound=1e-4, rtol=1e-2)
EX107 = dict(z=-0.35, fraction=0.9, rtol=5e-3)


@cache
def _default():
    return FiveBar()


def _undeflected(robot, x):
    return robot.assemble(robot.ikine_rigid(x), np.zeros(len(robot.ie)))


def _compact_statics(robot, q, f_ext):
    """eta_c + K_c q_c - G^T f: the compact forces that hold q at rest under gravity and f_ext."""
    return (robot.W(q).T @ robot.tree_gravload(q) + robot.K_t[np.ix_(robot.ic, robot.ic)] @ q[robot.ic]
            - robot.jacobian(q).T @ f_ext)


def _held(robot, x, f_ext):
    """Motor torques holding the rigid-IK motor angles at rest with the springs in equilibrium."""
    qa = robot.ikine_rigid(x)

    def elastic(e):
        return _compact_statics(robot, robot.assemble(qa, e), f_ext)[robot.ce]

    sol = root(elastic, np.zeros(len(robot.ie)), tol=1e-14)
    if not sol.success:
        raise RuntimeError(f"exercise 10.1: no equilibrium found ({sol.message})")
    return _compact_statics(robot, robot.assemble(qa, sol.x), f_ext)[robot.ca]


@cache
def _ex101():
    """The holding torques, and those of the mistakes the hints name."""
    robot = _default()
    g = robot.params["g"]
    f = np.array([0.0, -EX101["payload"] * g])
    right = _held(robot, EX101["x"], f)
    q0 = _undeflected(robot, EX101["x"])
    rigid = _compact_statics(robot, q0, f)[robot.ca]
    unloaded = _held(robot, EX101["x"], np.zeros(2))
    upward = _held(robot, EX101["x"], -f)
    payload_only = (-robot.jacobian(q0).T @ f)[robot.ca]
    return right, rigid, unloaded, upward, payload_only


def _cut_force(robot, y):
    z = np.zeros(robot.n_compact)
    q = _undeflected(robot, (0.0, y))
    return robot.inverse_dynamics(q, z, z, "lagrange", multipliers=True)[1]


def _ex102_height(measure):
    """The height on x = 0 where measure(y) reaches the factor times its value at home."""
    target = EX102["factor"] * measure(EX102["home"])
    return float(brentq(lambda y: measure(y) - target, EX102["y"][0], EX102["home"], xtol=1e-12))


@cache
def _ex102():
    robot = _default()
    right = _ex102_height(lambda y: float(np.linalg.norm(_cut_force(robot, y))))
    along_x = _ex102_height(lambda y: abs(float(_cut_force(robot, y)[0])))
    det_s = _ex102_height(lambda y: 1.0 / float(robot.singularity(_undeflected(robot, (0.0, y)))[1]))
    return right, along_x, det_s

@cache
def _ex103():
    robot = _default()

    def minus_type2(y):
        return -float(robot.singularity(_undeflected(robot, (0.0, y)))[1])

    res = minimize_scalar(minus_type2, bounds=EX103["y"], method="bounded",
                          options={"xatol": 1e-9})
    return float(res.x)


@cache
def _ex104():
    robot = _default()
    q = robot.assemble(robot.ikine_rigid(EX104["x"]), EX104["qe"])
    qdd = robot.forward_dynamics(q, EX104["qd"], EX104["tau"])
    # the chains alone, without the cut force
    qd_t = robot.velocities(q, EX104["qd"])
    free = []
    for k, (c, s) in enumerate(zip(robot.chains, robot.slices)):
        tau = np.zeros(c.n)
        tau[0] = EX104["tau"][k]
        free.append(c.accel(q[s], qd_t[s], tau))
    return qdd, np.concatenate(free)


def _ex105_lowest(K):
    return float(FiveBar(K=K).modes().frequency[0])


def _ex105_sags(K, part=None):
    """|displacement| at each pose of the statement (or one component of it, for a hint)."""
    robot = FiveBar(K=K)
    d = [robot.static_deflection(x).displacement for x in EX105["poses"]]
    return np.array([np.linalg.norm(v) if part is None else abs(v[part]) for v in d])


def _ex105_root(f, target):
    """The K where f(K) crosses target (f monotone in K)."""
    return brentq(lambda K: f(K) - target, 100.0, 1e5, xtol=1e-9, rtol=1e-12)


@cache
def _ex105():
    bound = EX105["sag"]
    k_freq = _ex105_root(_ex105_lowest, EX105["frequency"])
    k_sag = [_ex105_root(lambda K, i=i: _ex105_sags(K)[i], bound) for i in range(len(EX105["poses"]))]
    k_home = k_sag[EX105["poses"].index((0.0, 0.40))]
    k_dy = max(_ex105_root(lambda K, i=i: _ex105_sags(K, part=1)[i], bound)
               for i in range(len(EX105["poses"])))
    return max(k_freq, *k_sag), k_home, max(k_freq, k_dy)


def _ex106_vibration(duration):
    move = simulate_move(_default(), EX106["x0"], EX106["x1"], duration,
                         t_end=duration + EX106["after"], dt=EX106["dt"])
    return move.residual_vibration()


@cache
def _ex106():
    return np.array([_ex106_vibration(T) for T in EX106["durations"]])


@cache
def _delta():
    return delta_robot()


@cache
def _ex107_reach(sign=1.0):
    """How far the Delta's platform goes along sign * x (y = 0, z given) on home's branch, and the line's map."""
    model = _delta()
    s = np.linspace(0.0, 0.6, 121)
    line = np.stack([sign * s, np.zeros_like(s), np.full_like(s, EX107["z"])], -1)
    smap = parallel_singularity_map(model, line)
    k = int(np.flatnonzero(~smap.assembled)[0]) - 1
    lo, hi, q = s[k], s[k + 1], smap.q[k]
    while hi - lo > 1e-8:                               # bisection on "it still assembles", from the map's q
        mid = 0.5 * (lo + hi)
        try:
            q = parallel_ikine(model, (sign * mid, 0.0, EX107["z"]), guess=q)
            lo = mid
        except ValueError:
            hi = mid
    return lo, smap


@cache
def _ex107(sign=1.0, at="fraction"):
    """(reach, the modes' frequencies (Hz) at the fraction of it, or at home)."""
    reach, smap = _ex107_reach(sign)
    if at == "home":
        return reach, parallel_modes(_delta()).frequency
    x = np.array([sign * EX107["fraction"] * reach, 0.0, EX107["z"]])
    near = np.argmin(np.linalg.norm(smap.x - x, axis=-1))           # home's branch: start from the map
    return reach, parallel_modes(_delta(), x, guess=smap.q[near]).frequency


def _check_10_6(answer):
    """The shortest duration of the list that leaves little vibration, and that vibration."""
    a, hint = read_array(answer, (2,), "the pair (duration in s, residual vibration in m)")
    if hint:
        return hint
    T, r = a
    durations = np.array(EX106["durations"])
    k = int(np.argmin(np.abs(durations - T)))
    if abs(durations[k] - T) > 1e-6:
        return "pick the duration from the five the exercise lists"
    vib = _ex106()
    best = int(np.argmax(vib < EX106["bound"]))
    if k < best:
        return "a move that short leaves more than 0.1 mm of vibration behind"
    if k > best:
        return "that move is quiet enough, but a shorter one of the list is too"
    rtol = EX106["rtol"]
    if abs(r - vib[k]) <= rtol * vib[k]:
        return None
    if abs(r - 1e3 * vib[k]) <= rtol * 1e3 * vib[k]:
        return "the right duration; give its vibration in metres, not millimetres"
    if abs(r - 2 * vib[k]) <= 2 * rtol * vib[k]:
        return ("the right duration; the residual vibration is an amplitude, half the largest "
                "peak-to-peak excursion after the move")
    return ("the right duration, but the vibration does not match that move simulated as the exercise "
            "says: the default robot and controller, until 0.15 s after the move, sampled every 5 ms")


# --- the exercises ----------------------------------------------------------------

EXERCISES = [
    ArrayAnswer(
        "10.1", expected=lambda: _ex101()[0], what="motor torques (tau_a1, tau_a2) in N m", shape=(2,),
        mistakes=[
            Mistake(lambda: _ex101()[1], "those hold the robot with its springs undeflected; under the load "
                                         "the springs deflect, and the deflected robot needs other torques"),
            Mistake(lambda: _ex101()[2], "those hold the robot without its payload"),
            Mistake(lambda: _ex101()[3], "the payload hangs: the force it applies points down, along -y"),
            Mistake(lambda: _ex101()[4], "gravity also acts on the links and on the end-effector's own "
                                         "mass, not only on the payload"),
            Mistake(lambda: -_ex101()[0], "the sign: give the torques the motors apply"),
        ],
        fallback="at rest with the right spring deflections and motor torques every compact acceleration "
                 "vanishes; the motor angles are the rigid inverse kinematics of the pose"),
    Numeric(
        "10.2", expected=lambda: _ex102()[0], what="a height in m", rtol=0, atol=EX102["atol"],
        mistakes=[
            When(lambda v: not EX102["y"][0] <= v <= EX102["y"][1], "the height must lie in the range "
                                                                   "the question gives", example=1.0),
            Mistake(lambda: _ex102()[1], "compare the magnitude of the whole force, both of its components"),
            Mistake(lambda: _ex102()[2], "that is where the type-II measure has fallen by the factor; the "
                                         "question asks about the cut force"),
        ],
        fallback="the cut force at rest, springs undeflected, grows as the distal links straighten out; "
                 "search the heights below home for the one where its magnitude reaches ten times the "
                 "home value"),
    Numeric(
        "10.3", expected=_ex103, what="a height in m", rtol=0, atol=2e-3,
        mistakes=[
            When(lambda v: not EX103["y"][0] <= v <= EX103["y"][1], "the height must lie in the range the "
                                                                   "question gives", example=1.0),
        ],
        fallback="not where the type-II measure |det S| is largest; sample the heights along x = 0 "
                 "finely, springs undeflected, and take the one where that measure peaks"),
    ArrayAnswer(
        "10.4", expected=lambda: _ex104()[0], what="the tree accelerations", shape=(6,), rtol=1e-8,
        atol=1e-8,
        wrong_shapes={(4,): "give all six tree accelerations (a1, e1, p1, a2, e2, p2), not the compact ones"},
        mistakes=[
            Mistake(lambda: _ex104()[1], "those are the chains' free accelerations; add the response to the "
                                         "cut force lambda"),
        ],
        fallback="per chain: free acceleration M_i^-1 (tau_i - b_i) and response M_i^-1 A_i^T; then solve "
                 "(sum A_i Y_i) lambda = -Adot qd - sum A_i qdd_i0 (is b_i the chain's inverse dynamics "
                 "at zero acceleration?)"),
    Numeric(
        "10.5", expected=lambda: _ex105()[0], what="a stiffness in N m/rad", rtol=EX105["rtol"], atol=0,
        mistakes=[
            When(lambda v: v <= 0, "a stiffness must be positive", example=-1.0),
            When(lambda v: _ex105_lowest(v) < EX105["frequency"], example=100.0,
                 hint="with your K the lowest mode at home is still below 35 Hz"),
            Mistake(lambda: _ex105()[2], "the sag is the length of the displacement, its x and y parts "
                                         "together"),
            Mistake(lambda: _ex105()[1], "with your K the sag at home meets the bound, but not at every "
                                         "working pose"),
            When(lambda v: v < _ex105()[0], "with your K gravity still sags the end-effector by more than "
                                            "0.2 mm at one of the poses",
                 example=lambda: (_ex105()[1] + _ex105()[2]) / 2),
        ],
        fallback="your K meets both requirements, but a smaller one would too: which requirement decides, "
                 "and at which pose?"),
    Custom("10.6", _check_10_6),
    ArrayAnswer(
        "10.7", expected=lambda: [_ex107()[0], _ex107()[1][0]], what="the pair (reach in m, frequency in Hz)",
        shape=(2,), rtol=EX107["rtol"], atol=0,
        mistakes=[
            When(lambda a: a[0] > 1.0, "the reach is in metres", example=[394.0, 18.0]),
            When(lambda a: a[0] <= 0, "the reach along +x is a distance from the centre, positive",
                 example=[-0.4, 18.0]),
            Mistake(lambda: [_ex107(-1.0)[0], _ex107(-1.0)[1][0]], "that is the reach the other way, along "
                                                                   "-x: the legs are not placed symmetrically "
                                                                   "about the y-z plane"),
            Mistake(lambda: [_ex107()[0], _ex107(at="home")[1][0]], "that is the lowest mode at home; the "
                                                                    "question asks at 90 % of the reach"),
            Mistake(lambda: [_ex107()[0], 2 * np.pi * _ex107()[1][0]], "that frequency is in rad/s; give it "
                                                                       "in Hz"),
            Mistake(lambda: [_ex107()[0], _ex107()[1][-1]], "that is the highest of the three modes; the "
                                                            "question asks for the lowest"),
        ],
        fallback="{close}: is the reach the last point of the line where the mechanism still assembles on "
                 "home's branch, and the mode taken with the springs undeflected at 90 % of it?"),
]


#: The sentences this chapter's own checkers write (templates: each ``{field}`` is what the
#: code puts there), for rvc/locale/zh_CN.po, beside the hints its exercises list as data.
MESSAGES = (
    "{hint}: is the reach the last point of the line where the mechanism still assembles on home's "
    "branch, and the mode taken with the springs undeflected at 90 % of it?",
    "the pair (duration in s, residual vibration in m)",
    "pick the duration from the five the exercise lists",
    "a move that short leaves more than 0.1 mm of vibration behind",
    "that move is quiet enough, but a shorter one of the list is too",
    "the right duration; give its vibration in metres, not millimetres",
    "the right duration; the residual vibration is an amplitude, half the largest peak-to-peak excursion "
    "after the move",
    "the right duration, but the vibration does not match that move simulated as the exercise says: the "
    "default robot and controller, until 0.15 s after the move, sampled every 5 ms",
)
