"""The sources hold no control characters, and no docstring is mangled by an escape sequence.

A docstring ``\\theta`` that is not raw holds a tab and ``heta``: Sphinx
and ``help()`` then show garbage where the maths was.  Three checks: the bytes of
every file, the compiled strings of every Python module, and the warnings
Python gives for an escape it does not know (``"\\s"``, a SyntaxWarning that a
later Python makes an error).
"""

import ast
import pathlib
import warnings

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIRS = ("rvc", "tests", "tools")


def text_files():
    for d in DIRS:
        for p in sorted((ROOT / d).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".png", ".npz", ".npy", ".pyc"):
                try:
                    yield p, p.read_text(encoding="utf-8")
                except UnicodeDecodeError:
                    continue


def python_files():
    return [(p, s) for p, s in text_files() if p.suffix == ".py"]


def control_characters(text, allowed):
    return sorted({hex(ord(c)) for c in text if (ord(c) < 32 or ord(c) == 127) and c not in allowed})


def test_there_are_sources_to_check():
    assert len(python_files()) > 50


@pytest.mark.parametrize("path, text", list(text_files()), ids=lambda x: x.name if isinstance(x, pathlib.Path) else "")
def test_no_control_characters_in_a_file(path, text):
    allowed = "\n" if path.suffix == ".py" else "\n\t"
    assert not control_characters(text, allowed), f"{path.relative_to(ROOT)}: control characters"


@pytest.mark.parametrize("path, text", python_files(), ids=lambda x: x.name if isinstance(x, pathlib.Path) else "")
def test_no_docstring_holds_a_control_character(path, text):
    """A docstring's value (after Python read its escapes) is text and newlines only."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node, clean=False)
            name = getattr(node, "name", "the module")
            assert not control_characters(doc or "", "\n"), (
                f"{path.relative_to(ROOT)}: docstring of {name} holds control characters "
                "(an escape such as \\t or \\f in a docstring that should be raw, r\"\"\"...\"\"\")")


@pytest.mark.parametrize("path, text", python_files(), ids=lambda x: x.name if isinstance(x, pathlib.Path) else "")
def test_no_invalid_escape_sequence(path, text):
    with warnings.catch_warnings():
        warnings.simplefilter("error", SyntaxWarning)
        warnings.simplefilter("error", DeprecationWarning)
        compile(text, str(path), "exec", dont_inherit=True)


def test_the_checks_can_fail():
    """What the checks above catch: a tab in a file, a \\theta in a plain docstring, a \\s."""
    assert control_characters("x = 1\t# c\n", "\n") == ["0x9"]
    def doc(source):
        return ast.get_docstring(ast.parse(source).body[0], clean=False)
    assert control_characters(doc('def f():\n    """angle \\theta"""\n'), "\n") == ["0x9"]
    assert not control_characters(doc('def f():\n    r"""angle \\theta"""\n'), "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", SyntaxWarning)        # Python 3.12 on
        warnings.simplefilter("error", DeprecationWarning)   # Python 3.11 and before
        with pytest.raises((SyntaxError, DeprecationWarning)):
            compile('x = "\\s"\n', "<test>", "exec", dont_inherit=True)
