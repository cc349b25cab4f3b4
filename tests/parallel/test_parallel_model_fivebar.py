"""The five-bar as one instance of the general parallel model: rvc.models.fivebar_model() against FiveBar.

Every quantity Chapter 10 uses -- h, A, W, Wdot, the compact model, the three inverse and three forward
dynamics (with and without an end-effector force), energy, the Jacobian, assembly, the static sag and the
modes -- equals today's FiveBar/ClosedChain result to 1e-12 (relative to the quantity's size; the mode
shapes, which round-off moves by its size over the eigenvalue gap, to 1e-10), with one and two springs
per chain, at home and at a deflected, moving state.  So Chapter 10 can switch to the general model
without changing a number.
"""

import numpy as np
import pytest

from rvc.models import fivebar_model
from rvc.parallel import FiveBar, parallel_deflection, parallel_modes

TOL = 1e-12


def same(a, b, tol=TOL):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape
    np.testing.assert_allclose(a, b, rtol=0, atol=tol * max(1.0, float(np.abs(b).max())))


@pytest.fixture(scope="module", params=[1, 2], ids=["one spring", "two springs"])
def pair(request):
    return FiveBar(n_elastic=request.param), fivebar_model(n_elastic=request.param)


def state(fb, seed=0):
    rng = np.random.default_rng(seed)
    q = fb.assemble(fb.q_home[fb.ia] + [0.1, -0.05], np.linspace(0.01, -0.02, len(fb.ie)))
    return q, rng.normal(size=fb.n_compact), rng.normal(size=fb.n_compact), rng.normal(size=2)


def test_same_coordinates(pair):
    fb, pm = pair
    assert pm.roles == fb.roles and pm.N == fb.N and pm.n_compact == fb.n_compact
    same(pm.q_home, fb.q_home)
    qa, qe = fb.q_home[fb.ia] + [0.2, 0.1], np.full(len(fb.ie), 0.02)
    same(pm.assemble(qa, qe), fb.assemble(qa, qe))


def test_same_kinematics(pair):
    fb, pm = pair
    q, qd, _, _ = state(fb)
    for name in ("h", "A", "W", "fkine"):
        same(getattr(pm, name)(q), getattr(fb, name)(q))
    same(pm.Wdot(q, qd), fb.Wdot(q, qd))
    qd_t = fb.velocities(q, qd)
    same(pm.Adot(q, qd_t), fb.Adot(q, qd_t))
    same(pm.jacobian(q), fb.jacobian(q, "w"))


def test_same_dynamics(pair):
    fb, pm = pair
    q, qd, qdd, tau = state(fb)
    a, b = pm.compact(q, qd), fb.compact(q, qd)
    for k in ("M", "C", "eta", "K", "D"):
        same(getattr(a, k), getattr(b, k))
    for method in ("lagrange", "lda", "compact"):
        same(pm.inverse_dynamics(q, qd, qdd, method), fb.inverse_dynamics(q, qd, qdd, method))
    _, lam_pm = pm.inverse_dynamics(q, qd, qdd, "lagrange", multipliers=True)
    _, lam_fb = fb.inverse_dynamics(q, qd, qdd, "lagrange", multipliers=True)
    same(lam_pm, lam_fb)
    for method in ("compact", "kkt", "scdd"):
        same(pm.forward_dynamics(q, qd, tau, method), fb.forward_dynamics(q, qd, tau, method))
        same(pm.forward_dynamics(q, qd, tau, method, f_ext=[1.0, -2.0]),
             fb.forward_dynamics(q, qd, tau, method, f_ext=[1.0, -2.0]))
    same(pm.energy(q, qd), fb.energy(q, qd))


def test_same_elastic_behaviour(pair):
    fb, pm = pair
    s, t = parallel_deflection(pm), fb.static_deflection()
    same(s.deflection, t.deflection)
    same(s.displacement, t.displacement)
    same(s.q, t.q)
    m, n = parallel_modes(pm), fb.modes()
    same(m.frequency, n.frequency)
    same(m.damping, n.damping)
    # eigenvectors move by round-off / (gap between eigenvalues): with two springs per chain the
    # modes come in close pairs, and the shapes agree to 3e-12
    same(m.shapes, n.shapes, 1e-10)
    x = [0.03, 0.36]
    same(parallel_modes(pm, x).frequency, fb.modes(x).frequency)
    same(parallel_deflection(pm, x).displacement, fb.static_deflection(x).displacement)


def test_the_chapter_numbers():
    m = parallel_modes(fivebar_model())
    assert m.frequency.round(2).tolist() == [24.67, 28.96]
    assert m.damping.round(4).tolist() == [0.0155, 0.0182]
    assert round(float(parallel_deflection(fivebar_model()).displacement[1]) * 1e3, 3) == -0.459

