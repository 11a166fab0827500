"""The default content: the decks of sample-content/ assembled into complete packages by
sample-content/tools/assemble.py (the step `make samples` runs), brought up to date whenever the
server starts on them; a no-op when nothing changed."""
import importlib.util
import pathlib

from .content import ContentError

ASSEMBLER = pathlib.Path(__file__).resolve().parents[2] / "sample-content" / "tools" / "assemble.py"


def _load_assembler():
    spec = importlib.util.spec_from_file_location("sample_content_assemble", ASSEMBLER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


assembler = _load_assembler()  # sample-content/tools/assemble.py as a module
ASSEMBLED = assembler.OUT


def assembled_samples() -> pathlib.Path:
    """Assembles the sample decks into ASSEMBLED (.build/sample-content/) and returns that folder."""
    try:
        return assembler.assemble().path
    except (assembler.AssemblyError, OSError) as error:
        raise ContentError(f"cannot assemble the sample decks: {error}") from None
