"""The forward solvers' operation counts (parallel_operation_counts) and the split of parallel_fdyn.

The counts of a small loop (two two-link arms meeting at a point) equal a count done by hand; the
linear systems each method of parallel_solve_forward actually solves (recorded by wrapping numpy's
solve and det) have the sizes the count assumes, on the five-bar, the 3-RRR and the Delta; the
factorization counts of the five-bar equal those of the FiveBar's own solvers; parallel_fdyn is
parallel_solve_forward of parallel_tree_terms, single and batched.
"""

import numpy as np
import pytest

from rvc.models import delta_robot, fivebar_model, planar_arm, rrr3
from rvc.parallel import (FiveBar, ParallelModel, TreeTerms, operation_counts, parallel_assemble,
                          parallel_fdyn, parallel_operation_counts, parallel_solve_forward, parallel_tree_terms,
                          point_closure)

MODELS = {"five-bar": fivebar_model, "3-RRR": rrr3, "Delta, 2 springs": lambda: delta_robot(n_elastic=2)}


@pytest.fixture(scope="module")
def loop():
    left = planar_arm([0.3, 0.4], [0.2, 0.2], base=(-0.1, 0))
    right = planar_arm([0.3, 0.4], [0.2, 0.2], base=(0.1, 0))
    model = ParallelModel([left, right], ["ap", "ap"], point_closure("xy"))
    model.q_home = parallel_assemble(model, [2.0, 1.0], [], guess=[2.0, -1.5, 1.0, 1.5])
    return model


@pytest.fixture(scope="module", params=list(MODELS))
def model(request):
    return MODELS[request.param]()


def test_hand_count_of_a_small_loop(loop):
    # N = 4 tree, n_c = 2 compact coordinates, k = 2 conditions, n_p = 2 passive; bodies of 2 joints.
    # An n x n LU: 2 n^3 / 3, so LU(2) = 16/3 and LU(6) = 144.
    assert (loop.N, loop.n_compact, loop.k, len(loop.ip)) == (4, 2, 2, 2)
    c = parallel_operation_counts(loop)
    # compact: f = tau - b                                       4
    #          det(A_p) and LU(A_p)                              16/3 + 16/3
    #          substitution, 3 right-hand sides: 2 * 2^2 * 3     24
    #          per body: W_i^T M_i (2x2)(2x2) 16, times W_i 16, sum into M_c 4,
    #                    M_i Wd_i 8, f_i - that 2, W_i^T (.) 8, sum into r 2    56, two bodies 112
    #          LU(M_c) 16/3, substitution 8                      16/3 + 8
    #          W qdd_c (4x2)(2) 16, + Wd qd 4                    20
    assert c["compact"] == pytest.approx(4 + 32 / 3 + 24 + 112 + 16 / 3 + 8 + 20)           # 184
    # kkt: f 4, LU of the 6 x 6 matrix 144, substitution 2 * 6^2 = 72
    assert c["kkt"] == pytest.approx(220)
    # scdd: f 4; per body LU(2) 16/3, substitution with 1 + k = 3 right-hand sides 24,
    #       A_i Y_i (2x2)(2x2) 16 and its sum 4, A_i qdd0_i 8 and its sum 2,
    #       Y_i lambda 8 and the addition 2                     16/3 + 64 per body
    #       det and LU of the 2 x 2 Schur complement 32/3, substitution 8
    assert c["scdd"] == pytest.approx(4 + 2 * (16 / 3 + 64) + 32 / 3 + 8)                    # 161 1/3
    assert c["factor_compact"] == pytest.approx(16 / 3)
    assert c["factor_kkt"] == pytest.approx(144)
    assert c["factor_scdd"] == pytest.approx(3 * 16 / 3)


def recorded(monkeypatch, model, terms, method):
    """The (n, right-hand sides) of every np.linalg.solve and the n of every det one solve makes."""
    solves, dets = [], []
    solve, det = np.linalg.solve, np.linalg.det

    def rec_solve(a, b):
        solves.append((a.shape[-1], b.shape[-1] if b.ndim == a.ndim else 1))
        return solve(a, b)

    def rec_det(a):
        dets.append(a.shape[-1])
        return det(a)

    monkeypatch.setattr(np.linalg, "solve", rec_solve)
    monkeypatch.setattr(np.linalg, "det", rec_det)
    parallel_solve_forward(model, terms, method)
    monkeypatch.undo()
    return sorted(solves), sorted(dets)


def test_the_count_has_the_sizes_the_solver_forms(monkeypatch, model):
    rng = np.random.default_rng(3)
    q = parallel_assemble(model, model.q_home[model.ia], rng.uniform(-0.01, 0.01, len(model.ie)))
    terms = parallel_tree_terms(model, q, rng.normal(size=model.n_compact), rng.normal(size=len(model.ia)))
    nc, k, npas, N = model.n_compact, model.k, len(model.ip), model.N
    bodies = [c.n for c in model.chains] + ([model.n_platform] if model.n_platform else [])
    assert recorded(monkeypatch, model, terms, "compact") == (sorted([(npas, nc + 1), (nc, 1)]), [npas])
    assert recorded(monkeypatch, model, terms, "kkt") == ([(N + k, 1)], [])
    assert recorded(monkeypatch, model, terms, "scdd") == (sorted([(n, 1 + k) for n in bodies] + [(k, 1)]), [k])
    # and the count's factorizations are those systems' LUs
    lu = lambda n: 2 * n ** 3 / 3                                  # noqa: E731
    c = parallel_operation_counts(model)
    assert c["factor_compact"] == pytest.approx(lu(nc))
    assert c["factor_kkt"] == pytest.approx(lu(N + k))
    assert c["factor_scdd"] == pytest.approx(sum(lu(n) for n in bodies) + lu(k))


@pytest.mark.parametrize("n_elastic", [1, 2])
def test_five_bar_factorizations_equal_the_fivebar_solvers(n_elastic):
    a, b = parallel_operation_counts(fivebar_model(n_elastic=n_elastic)), operation_counts(FiveBar(n_elastic=n_elastic))
    for key in ("factor_compact", "factor_kkt", "factor_scdd"):
        assert a[key] == pytest.approx(b[key])


def test_fdyn_is_the_solve_of_the_terms(model):
    rng = np.random.default_rng(5)
    qs = np.stack([parallel_assemble(model, model.q_home[model.ia], rng.uniform(-0.01, 0.01, len(model.ie)))
                   for _ in range(3)])
    qd, tau = rng.normal(size=(3, model.n_compact)), rng.normal(size=(3, len(model.ia)))
    f_ext = rng.normal(size=model.n_x)
    for method in ("compact", "kkt", "scdd"):
        terms = parallel_tree_terms(model, qs, qd, tau, f_ext=f_ext)
        batched = parallel_solve_forward(model, terms, method)
        for i in range(3):
            one = parallel_fdyn(model, qs[i], qd[i], tau[i], method, f_ext=f_ext)
            np.testing.assert_allclose(batched[i], one, rtol=1e-12, atol=1e-12 * np.abs(one).max())
    ref = parallel_solve_forward(model, terms, "kkt")
    for method in ("compact", "scdd"):
        np.testing.assert_allclose(parallel_solve_forward(model, terms, method), ref, rtol=1e-9,
                                   atol=1e-9 * np.abs(ref).max())


def test_solve_refuses_what_is_not_terms(loop):
    with pytest.raises(TypeError, match="terms"):
        parallel_solve_forward(loop, {"M": np.eye(4)}, "kkt")
    t = parallel_tree_terms(loop, loop.q_home, np.zeros(2), [0.0, 0.0])
    assert isinstance(t, TreeTerms)
    with pytest.raises(ValueError, match="method"):
        parallel_solve_forward(loop, t, "lu")
