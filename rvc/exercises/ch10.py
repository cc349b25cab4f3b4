"""The Chapter 10 exercises (dynamics of elastic parallel manipulators), as data.

Each exercise recomputes its expected value with rvc; its typical mistakes
stand next to their hints, which never reveal the expected value.  The
exercise statements are in ``notebooks/10_elastic_parallel.ipynb``; the
constants below are the ones the statements give.

Tolerances that differ from the policy (``rvc.exercises``), kept from the
checkers they replace: 10.1, 10.2, 10.5 and 10.7 take tighter absolute bands
(1e-9 or 1e-8; 10.7 also 1e-8 relative), their answers being small and exact
linear algebra; 10.3 is relative only (1e-6); 10.6 takes 2e-3 m, the height
being found by a search; 10.8 takes 0.5 % relative, the stiffness being the
root of a model.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy.optimize import brentq, minimize_scalar

from ..parallel import FiveBar, rigid_plan, simulate_move
from . import ArrayAnswer, Custom, Mistake, Numeric, When, read_array, read_number

__all__: list[str] = []

# --- the data of the exercise statements ------------------------------------

EX101 = dict(x=(0.05, 0.35))
EX102 = dict(x=(0.08, 0.30))
EX103 = dict(x0=(0.0, 0.40), x1=(0.10, 0.35), duration=0.25, samples=251)
EX104 = dict(frequency=40.0)
EX105 = dict(x=(0.10, 0.30))
EX106 = dict(y=(0.10, 0.55))
EX107 = dict(x=(0.05, 0.38), qe=(0.01, -0.005), qd=(0.5, -2.0, 0.3, 1.0), tau=(0.8, -0.4))
EX108 = dict(frequency=35.0, sag=2e-4, poses=((-0.10, 0.35), (0.0, 0.40), (0.10, 0.30)), rtol=5e-3)
EX109 = dict(x0=(-0.12, 0.36), x1=(0.12, 0.36), durations=(0.20, 0.25, 0.30, 0.35, 0.40),
             after=0.15, dt=0.005, bound=1e-4, rtol=1e-2)


@cache
def _default():
    return FiveBar()


def _undeflected(robot, x):
    return robot.assemble(robot.ikine_rigid(x), np.zeros(len(robot.ie)))


@cache
def _default():
    return FiveBar()


def _undeflected(robot, x):
    return robot.assemble(robot.ikine_rigid(x), np.zeros(len(robot.ie)))


@cache
def _ex101():
    """W at the pose of 10.1, and the two wrong forms of it the hints name."""
    robot = _default()
    W = robot.W(_undeflected(robot, EX101["x"]))
    flipped = W.copy()
    flipped[robot.ip] *= -1
    return W, flipped, np.concatenate([W[robot.ic], W[robot.ip]])


@cache
def _ex102():
    robot = _default()
    q = _undeflected(robot, EX102["x"])
    z = np.zeros(robot.n_compact)
    return robot.inverse_dynamics(q, z, z, "lagrange", multipliers=True)[1]


@cache
def _ex105():
    return _default().static_deflection(EX105["x"])


@cache
def _ex103():
    robot = _default()
    t = np.linspace(0, EX103["duration"], EX103["samples"])
    plan = rigid_plan(robot, EX103["x0"], EX103["x1"], EX103["duration"], t)
    return (float(np.abs(plan.tau[:, robot.ce]).max()), float(np.abs(plan.tau[:, robot.ca]).max()),
            float(np.abs(plan.tau[:, robot.ce]).max(axis=0).min()))


@cache
def _ex106():
    robot = _default()

    def minus_type2(y):
        return -float(robot.singularity(_undeflected(robot, (0.0, y)))[1])

    res = minimize_scalar(minus_type2, bounds=EX106["y"], method="bounded",
                          options={"xatol": 1e-9})
    return float(res.x)


@cache
def _ex107():
    robot = _default()
    q = robot.assemble(robot.ikine_rigid(EX107["x"]), EX107["qe"])
    qdd = robot.forward_dynamics(q, EX107["qd"], EX107["tau"])
    # the chains alone, without the cut force
    qd_t = robot.velocities(q, EX107["qd"])
    free = []
    for k, (c, s) in enumerate(zip(robot.chains, robot.slices)):
        tau = np.zeros(c.n)
        tau[0] = EX107["tau"][k]
        free.append(c.accel(q[s], qd_t[s], tau))
    return qdd, np.concatenate(free)


def _ex108_lowest(K):
    return float(FiveBar(K=K).modes().frequency[0])


def _ex108_sags(K, part=None):
    """|displacement| at each pose of the statement (or one component of it, for a hint)."""
    robot = FiveBar(K=K)
    d = [robot.static_deflection(x).displacement for x in EX108["poses"]]
    return np.array([np.linalg.norm(v) if part is None else abs(v[part]) for v in d])


def _ex108_root(f, target):
    """The K where f(K) crosses target (f monotone in K)."""
    return brentq(lambda K: f(K) - target, 100.0, 1e5, xtol=1e-9, rtol=1e-12)


@cache
def _ex108():
    bound = EX108["sag"]
    k_freq = _ex108_root(_ex108_lowest, EX108["frequency"])
    k_sag = [_ex108_root(lambda K, i=i: _ex108_sags(K)[i], bound) for i in range(len(EX108["poses"]))]
    k_home = k_sag[EX108["poses"].index((0.0, 0.40))]
    k_dy = max(_ex108_root(lambda K, i=i: _ex108_sags(K, part=1)[i], bound)
               for i in range(len(EX108["poses"])))
    return max(k_freq, *k_sag), k_home, max(k_freq, k_dy)


def _check_10_4(answer):
    """A stiffness whose lowest mode is at the asked frequency (judged through the modes)."""
    v, hint = read_number(answer, "a stiffness in N m/rad")
    if hint:
        return hint
    if v <= 0:
        return "a stiffness must be positive"
    f = FiveBar(K=v).modes().frequency[0]
    if abs(f - EX104["frequency"]) <= 1e-6 * EX104["frequency"]:
        return None
    f2 = FiveBar(K=v).modes().frequency[-1]
    if abs(f2 - EX104["frequency"]) <= 1e-6 * EX104["frequency"]:
        return "that tunes the second mode; the question asks for the lowest one"
    side = "high" if f > EX104["frequency"] else "low"
    return (f"with your K the lowest mode is too {side}; the frequencies grow like the square "
            "root of K (the masses do not change)")


def _ex109_vibration(duration):
    move = simulate_move(_default(), EX109["x0"], EX109["x1"], duration,
                         t_end=duration + EX109["after"], dt=EX109["dt"])
    return move.residual_vibration()


@cache
def _ex109():
    return np.array([_ex109_vibration(T) for T in EX109["durations"]])


def _check_10_9(answer):
    """The shortest duration of the list that leaves little vibration, and that vibration."""
    a, hint = read_array(answer, (2,), "the pair (duration in s, residual vibration in m)")
    if hint:
        return hint
    T, r = a
    durations = np.array(EX109["durations"])
    k = int(np.argmin(np.abs(durations - T)))
    if abs(durations[k] - T) > 1e-6:
        return "pick the duration from the five the exercise lists"
    vib = _ex109()
    best = int(np.argmax(vib < EX109["bound"]))
    if k < best:
        return "a move that short leaves more than 0.1 mm of vibration behind"
    if k > best:
        return "that move is quiet enough, but a shorter one of the list is too"
    rtol = EX109["rtol"]
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
        "10.1", expected=lambda: _ex101()[0], what="W, tree rows by compact columns,", shape=(6, 4),
        atol=1e-9,
        wrong_shapes={(4, 6): "your matrix is transposed: W maps compact rates (4) to tree rates (6)"},
        mistakes=[
            Mistake(lambda: _ex101()[1], "the passive rows have the wrong sign: A_c qd_c + A_p qd_p = 0"),
            Mistake(lambda: _ex101()[2], "the rows must be in tree order (a1, e1, p1, a2, e2, p2), not "
                                         "identity block on top"),
        ],
        fallback="the passive rows are -A_p^-1 A_c, the others the identity, with A the loop-closure "
                 "Jacobian at this pose, springs undeflected"),
    ArrayAnswer(
        "10.2", expected=_ex102, what="a force (fx, fy) in N", shape=(2,), atol=1e-8,
        mistakes=[
            Mistake(lambda: -_ex102(), "that is the force on chain 2's tip; the multipliers act on chain "
                                       "1's tip (A = [J1, -J2])"),
        ],
        fallback="at rest only gravity acts: solve the passive rows of the tree's equations, "
                 "A_p^T lambda = eta_p, for lambda"),
    Numeric(
        "10.3", expected=lambda: _ex103()[0], what="a torque in N m", rtol=1e-6, atol=0,
        mistakes=[
            Mistake(lambda: _ex103()[1], "that is the largest motor torque; the question asks about the "
                                         "elastic entries"),
            Mistake(lambda: _ex103()[2], "take the largest magnitude over both springs, not one of them"),
            When(lambda v: v < 0, "the question asks for a magnitude", example=-1.0),
        ],
        fallback="plan the given move for the rigid robot, 251 samples, and take the largest magnitude of "
                 "the torques on the elastic rows"),
    Custom("10.4", _check_10_4),
    ArrayAnswer(
        "10.5", expected=lambda: _ex105().displacement, what="a displacement (dx, dy) in m", shape=(2,),
        atol=1e-9,
        mistakes=[
            Mistake(lambda: _ex105().displacement * 1e3, "your displacement looks like millimetres; answer "
                                                         "in metres", atol=1e-6),
            Mistake(lambda: _ex105().deflection, "those are the spring deflections (rad); the question asks "
                                                 "for the end-effector's displacement"),
            Mistake(lambda: -_ex105().displacement, "the sign: the displacement is where the end-effector "
                                                    "goes, minus where it was asked to be"),
        ]),
    Numeric(
        "10.6", expected=_ex106, what="a height in m", rtol=0, atol=2e-3,
        mistakes=[
            When(lambda v: not EX106["y"][0] <= v <= EX106["y"][1], "the height must lie in the range the "
                                                                   "question gives", example=1.0),
        ],
        fallback="not where the type-II measure |det S| is largest; sample the heights along x = 0 "
                 "finely, springs undeflected, and take the one where that measure peaks"),
    ArrayAnswer(
        "10.7", expected=lambda: _ex107()[0], what="the tree accelerations", shape=(6,), rtol=1e-8,
        atol=1e-8,
        wrong_shapes={(4,): "give all six tree accelerations (a1, e1, p1, a2, e2, p2), not the compact ones"},
        mistakes=[
            Mistake(lambda: _ex107()[1], "those are the chains' free accelerations; add the response to the "
                                         "cut force lambda"),
        ],
        fallback="per chain: free acceleration M_i^-1 (tau_i - b_i) and response M_i^-1 A_i^T; then solve "
                 "(sum A_i Y_i) lambda = -Adot qd - sum A_i qdd_i0 (is b_i the chain's inverse dynamics "
                 "at zero acceleration?)"),
    Numeric(
        "10.8", expected=lambda: _ex108()[0], what="a stiffness in N m/rad", rtol=EX108["rtol"], atol=0,
        mistakes=[
            When(lambda v: v <= 0, "a stiffness must be positive", example=-1.0),
            When(lambda v: _ex108_lowest(v) < EX108["frequency"], example=100.0,
                 hint="with your K the lowest mode at home is still below 35 Hz"),
            Mistake(lambda: _ex108()[2], "the sag is the length of the displacement, its x and y parts "
                                         "together"),
            Mistake(lambda: _ex108()[1], "with your K the sag at home meets the bound, but not at every "
                                         "working pose"),
            When(lambda v: v < _ex108()[0], "with your K gravity still sags the end-effector by more than "
                                            "0.2 mm at one of the poses",
                 example=lambda: (_ex108()[1] + _ex108()[2]) / 2),
        ],
        fallback="your K meets both requirements, but a smaller one would too: which requirement decides, "
                 "and at which pose?"),
    Custom("10.9", _check_10_9),
]
