"""Chapter 9 exercise checkers: right answers pass, typical wrong ones get a hint,
and no feedback ever contains the expected numbers nor names code."""

import re
from functools import cache

import numpy as np
import pytest

import rvc
from rvc import dynparams, fdyn, gravload, inertia, jtraj, nofriction, payload, sea
from exercise_leaks import assert_no_leak, feedback
from support import frozen_cache
from rvc.exercises import check, exercises
from rvc.models import puma560, puma560_motor2, twolink


P = puma560()
MOTOR = puma560_motor2()


# ---------------------------------------------------------- right answers, as a student writes them

def shaft_inertia_91(G):
    """J' = Jm + (M22 - Gp^2 Jm) / G^2 over the elbow grid: the link's part of M22 seen at ratio G."""
    Q = np.zeros((361, 6))
    Q[:, 2] = np.linspace(-np.pi, np.pi, 361)
    link = inertia(P, Q)[:, 1, 1] - P.links[1].G ** 2 * P.links[1].Jm
    return MOTOR.Jm + link / G ** 2


def spread_91(G):
    """Fastest over slowest velocity-loop bandwidth (B + K Kv) / J': the gains cancel."""
    J = shaft_inertia_91(G)
    return J.max() / J.min()


def answer_91():
    lo, hi = 1.0, 5000.0                             # bisection: the spread falls as G grows
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if spread_91(mid) > 1.1 else (lo, mid)
    return hi


def answer_92():
    tau_d = gravload(P, P.qs)[1] / MOTOR.G
    t = np.arange(0, 0.2, 1e-3)                      # simulate until the transient has died
    r = rvc.vloop(MOTOR, 50.0, t, Kv=1.0, J=P.jointdynamics(P.qs).J[1], tau_d=tau_d)
    return r.error[-1]


def answer_93():
    link = inertia(P, P.qn)[1, 1] - dynparams(P).G[1] ** 2 * dynparams(P).Jm[1]
    g2 = gravload(P, P.qn)[1]
    G = np.linspace(10, 1000, 99001)
    qdd = (G * MOTOR.tau_max - g2) / (G ** 2 * MOTOR.Jm + link)
    return G[np.argmax(qdd)]


def answer_94():
    """A fine scan of the shoulder over [-pi/2, pi/2] with the rest at qz."""
    q2 = np.linspace(-np.pi / 2, np.pi / 2, 20001)
    Q = np.zeros((q2.size, 6))
    Q[:, 1] = q2
    return q2[np.argmax(np.abs(gravload(P, Q)[:, 1]))]


def share_95(T, qdd=False):
    """Peak velocity (or velocity + inertial) torque at joint 2 over its peak gravity torque."""
    tr = jtraj(P.qz, P.qr, np.linspace(0, T, 201))
    nf = nofriction(P, viscous=True)
    acc = tr.qdd if qdd else 0 * tr.qdd
    tau = nf.rne(tr.q, tr.qd, acc, gravity=[0, 0, 0])[:, 1]
    return np.abs(tau).max() / np.abs(P.gravload(tr.q)[:, 1]).max()


def bisect_T(f, lo=0.05, hi=20.0):
    """The duration where f (falling in T) crosses 0.1."""
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0.1 else (lo, mid)
    return hi


@frozen_cache
def answer_95():
    return bisect_T(share_95)


def answer_96():
    arm = puma560()
    g0 = gravload(arm, arm.qs)[1]
    payload(arm, 1.0, [0, 0, 0.1])
    return (60.0 - g0) / (gravload(arm, arm.qs)[1] - g0)


def answer_97():
    q = np.array([0, 0.5, 2.5, 0, 0.8, 0])
    arm = puma560()
    before = np.linalg.eigvalsh(arm.inertia_x(q, "trans")).min()
    arm.payload(2.5, [0, 0, 0.1])
    return np.linalg.eigvalsh(arm.inertia_x(q, "trans")).min() - before


def answer_98():
    tl = nofriction(twolink(), viscous=True)
    sim = fdyn(tl, 0.5, tl.qz, rtol=1e-9, atol=1e-9)
    return tl.energy(sim.q[-1], sim.qd[-1]).kinetic


def shoulder_peak(T, robot=P, gravity=None):
    tr = jtraj(robot.qz, robot.qr, np.linspace(0, T, 201))
    return np.abs(robot.rne(tr.q, tr.qd, tr.qdd, gravity=gravity)[:, 1]).max()


def shortest_move(robot=P, gravity=None):
    lo, hi = 0.1, 10.0                                # bisection: the peak falls as T grows
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if shoulder_peak(mid, robot, gravity) > MOTOR.G * MOTOR.tau_max else (lo, mid)
    return hi


@cache
@frozen_cache
def answer_99():
    return shortest_move()


def ct_error(wn, loaded=True):
    """Largest error of computed torque at wn (zeta = 1) with the payload unknown to the model."""
    model = P.nofriction()
    real = P.nofriction()
    if loaded:
        real.payload(2.5, [0, 0, 0.1])
    traj = jtraj(P.qz, P.qr, np.arange(0, 1.005, 0.01))
    sim = rvc.simulate(real, rvc.computed_torque_law(model, traj, wn ** 2, 2 * wn), P.qz, T=1.0, dt=0.01)
    return np.abs(sim.error).max()


@cache
@frozen_cache
def answer_910():
    """Scan the whole numbers upwards."""
    return next(wn for wn in range(1, 100) if ct_error(wn) <= 0.01)


T_SEA = np.arange(0, 0.35, 1e-4)


def sensed(k):
    r = sea(T_SEA, 0.5, k=k)
    hit = T_SEA[np.argmax(r.contact_force > 0)]
    return r.spring_force[(T_SEA >= hit) & (T_SEA <= hit + 0.02)].max()


@cache
@frozen_cache
def answer_911():
    lo, hi = 10.0, 3e4
    for _ in range(30):
        mid = np.sqrt(lo * hi)
        lo, hi = (mid, hi) if sensed(mid) <= 20.0 else (lo, mid)
    return lo


RIGHT = {"9.1": answer_91, "9.2": answer_92, "9.3": answer_93, "9.4": answer_94,
         "9.5": answer_95, "9.6": answer_96, "9.7": answer_97, "9.8": answer_98,
         "9.9": answer_99, "9.10": answer_910, "9.11": answer_911}


def test_every_chapter_9_checker_has_a_right_answer():
    assert {k for k in exercises() if k.startswith("9.")} == set(RIGHT)


@pytest.mark.parametrize("exercise_id", sorted(RIGHT))
def test_right_answers_pass(capsys, exercise_id):
    ok, text = feedback(capsys, exercise_id, RIGHT[exercise_id]())
    assert ok, text
    assert "correct" in text


# ---------------------------------------------------------- typical mistakes and their hints

def gravload_loaded():
    arm = puma560()
    payload(arm, 1.0, [0, 0, 0.1])
    return gravload(arm, arm.qs)[1]


def steady_error(B, tau_d):
    """The P loop's steady speed error with friction B and disturbance tau_d (motor side)."""
    return (B * 50.0 + tau_d) / (B + MOTOR.Km * MOTOR.Ka * 1.0)


def best_ratio(J_load, g2):
    G = np.linspace(10, 1000, 99001)
    return G[np.argmax((G * MOTOR.tau_max - g2) / (G ** 2 * MOTOR.Jm + J_load))]


Q_GRID = np.zeros((361, 6))
Q_GRID[:, 2] = np.linspace(-np.pi, np.pi, 361)
M22_GRID = inertia(P, Q_GRID)[:, 1, 1]
LINK_GRID = M22_GRID - P.links[1].G ** 2 * P.links[1].Jm


def elbow_peak_94():
    q2 = np.linspace(-np.pi / 2, np.pi / 2, 20001)
    Q = np.zeros((q2.size, 6))
    Q[:, 1] = q2
    return q2[np.argmax(np.abs(gravload(P, Q)[:, 2]))]


def balanced_94():
    """Where the shoulder load changes sign in [-pi/2, pi/2]."""
    q2 = np.linspace(-np.pi / 2, np.pi / 2, 200001)
    Q = np.zeros((q2.size, 6))
    Q[:, 1] = q2
    g = gravload(P, Q)[:, 1]
    return q2[np.flatnonzero(np.diff(np.sign(g)))[0]]


def eig_97(mass):
    arm = puma560()
    if mass:
        arm.payload(mass, [0, 0, 0.1])
    return np.linalg.eigvalsh(arm.inertia_x(np.array([0, 0.5, 2.5, 0, 0.8, 0]), "trans"))


def hardest_97():
    return eig_97(2.5)[-1] - eig_97(0)[-1]


def ratio_97():
    return eig_97(2.5)[0] / eig_97(0)[0]


def ct_exact_910():
    return next(wn for wn in range(1, 100) if ct_error(wn, loaded=False) <= 0.01)


G2_QS, G2_QN, M22_QN = gravload(P, P.qs)[1], gravload(P, P.qn)[1], inertia(P, P.qn)[1, 1]
LINK_QN = M22_QN - MOTOR.G ** 2 * MOTOR.Jm

WRONG = {
    "9.1": [(lambda: np.sqrt((M22_GRID.max() - 1.1 * M22_GRID.min()) / (0.1 * MOTOR.Jm)), "own ratio"),
            (lambda: np.sqrt((LINK_GRID.max() - LINK_GRID.min()) / (0.1 * MOTOR.Jm)), "rotor alone"),
            (lambda: MOTOR.G, "more than 1.1 times"), (lambda: 2 * answer_91(), "smaller one"),
            (lambda: -5.0, "positive"), (lambda: "x", "string")],
    "9.2": [(lambda: -answer_92(), "sign"),
            (lambda: steady_error(0.0, G2_QS / MOTOR.G), "friction"),
            (lambda: steady_error(MOTOR.B, 0.0), "weight"),
            (lambda: steady_error(MOTOR.B, G2_QS), "gear ratio"),
            (lambda: 0.0, "balances"), (lambda: [1.0, 2.0], "one number")],
    "9.3": [(lambda: np.sqrt(LINK_QN / MOTOR.Jm), "inertia match"),
            (lambda: best_ratio(M22_QN, G2_QN), "rotor"),
            (lambda: np.sqrt(M22_QN / MOTOR.Jm), "rotor"),
            (lambda: MOTOR.G, "larger ratio"), (lambda: 20.0, "cannot even hold"),
            (lambda: 2 * answer_93(), "smaller")],
    "9.4": [(lambda: np.degrees(answer_94()), "radians"), (lambda: answer_94() + np.pi, "turned over"),
            (lambda: 0.0, "centre of mass"), (lambda: answer_94() + 0.5, "many shoulder angles"),
            (lambda: elbow_peak_94(), "elbow"), (lambda: balanced_94(), "vanishes"),
            (lambda: np.zeros(6), "one number")],
    "9.5": [(lambda: bisect_T(lambda T: share_95(T, qdd=True)), "accelerations"),
            (lambda: share_95(1.0) / 0.1, "square"), (lambda: 0.5 * answer_95(), "already more"),
            (lambda: 2 * answer_95(), "shorter"), (lambda: -1.0, "positive"), (lambda: [1, 2], "one number")],
    "9.6": [(lambda: 60 / gravload_loaded(), "own weight"),
            (lambda: answer_96() * 2, "above"), (lambda: -1.0, "negative")],
    "9.7": [(lambda: 2.5, "simply added"), (lambda: hardest_97(), "hardest"),
            (lambda: ratio_97(), "ratio"), (lambda: -1.0, "easier"), (lambda: 1.0, "smallest eigenvalue")],
    "9.8": [(lambda: -answer_98(), "never negative"), (lambda: 1.0, "frictionless")],
    "9.9": [(lambda: shortest_move(nofriction(P)), "friction"),
            (lambda: shortest_move(nofriction(P, viscous=True)), "friction"),
            (lambda: shortest_move(gravity=[0, 0, 0]), "gravity"),
            (lambda: 1.0, "too fast"), (lambda: 2.0, "to spare"), (lambda: -1.0, "positive")],
    "9.10": [(lambda: np.ceil(10 * np.sqrt(ct_error(10) / 0.01)), "prediction"), (lambda: ct_exact_910(), "payload"),
             (lambda: answer_910() + 0.3, "whole number"), (lambda: answer_910() - 3, "passes the limit"),
             (lambda: answer_910() + 5, "smaller whole number"), (lambda: -1.0, "positive"),
             (lambda: [1, 2], "one number")],
    "9.11": [(lambda: 2 * answer_911(), "softer"), (lambda: answer_911() / 2, "stiffer"),
             (lambda: 0.0, "positive"), (lambda: "soft", "string")],
}


@pytest.mark.parametrize("exercise_id,case", [(k, i) for k, v in WRONG.items()
                                              for i in range(len(v))])
def test_wrong_answers_get_a_hint_without_the_answer(capsys, exercise_id, case):
    make, word = WRONG[exercise_id][case]
    ok, text = feedback(capsys, exercise_id, make())
    assert not ok
    assert word in text.lower() or word in text, text
    assert_no_leak(text, RIGHT[exercise_id]())


# the same rule as tests/exercises/test_exercise_feedback.py: a hint names the idea, never the code
CODE = re.compile(r"\bnp\.|=True\b|=False\b|\b("
                  + "|".join(sorted((re.escape(n) for n in dir(rvc)
                                     if not n.startswith("_") and callable(getattr(rvc, n))),
                                    key=len, reverse=True)) + r")\(")


def test_hints_name_the_idea_not_the_code(capsys):
    for exercise_id, cases in WRONG.items():
        for make, _ in cases:
            check(exercise_id, make())
            hint = capsys.readouterr().out.split("Hint:", 1)[-1]
            assert not CODE.search(hint), (exercise_id, hint)


def test_the_code_rule_can_fail():
    assert CODE.search("call inertia(q) first") and not CODE.search("the inertia at the joint")


def test_the_acceptance_bands_are_tight():
    """The tolerances accept a careful numerical answer but not a rough one."""
    assert check("9.1", answer_91() * 1.0005) and not check("9.1", answer_91() * 1.0015)
    assert check("9.4", answer_94() + 1e-3) and not check("9.4", answer_94() + 3e-3)
    assert check("9.5", answer_95() * 1.0005) and not check("9.5", answer_95() * 0.9985)
    assert check("9.7", answer_97() * 1.0005) and not check("9.7", answer_97() * 1.0015)
    assert check("9.10", answer_910()) and not check("9.10", answer_910() + 1e-4)
    assert check("9.3", answer_93() * 1.001) and not check("9.3", answer_93() * 1.01)
    assert check("9.9", answer_99() * 1.0005) and not check("9.9", answer_99() * 1.005)
    assert check("9.11", answer_911() * 0.99) and not check("9.11", answer_911() * 0.95)
    assert not check("9.11", answer_911() * 1.05)


def test_91_the_puma_ratio_lets_the_bandwidth_vary_more():
    assert spread_91(MOTOR.G) > 1.3 > 1.1 >= spread_91(answer_91()) - 1e-9


def test_95_velocity_torques_scale_as_one_over_T_squared():
    assert share_95(0.5) == pytest.approx(4 * share_95(1.0), rel=1e-9)


def test_910_the_prediction_falls_short_and_the_payload_matters():
    assert ct_error(answer_910()) <= 0.01 < ct_error(answer_910() - 1)
    assert 23 == np.ceil(10 * np.sqrt(ct_error(10) / 0.01)) < answer_910()      # 1/wn^2 falls short
    assert ct_exact_910() < answer_910() - 5
