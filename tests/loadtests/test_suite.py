"""`make bench`'s suite: it writes its generated section between the markers and nowhere else, and a quick run
of one row produces that section from a real bench run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from loadtests.suite import BEGIN, END, write_doc

ROOT = Path(__file__).resolve().parents[2]


def test_write_doc_replaces_only_the_generated_section(tmp_path: Path) -> None:
    doc = tmp_path / "b.md"
    doc.write_text(f"# Bench\n\nbefore\n\n{BEGIN}\nold table\n{END}\n\nafter\n")
    write_doc(f"{BEGIN}\nnew table\n{END}", doc)
    assert doc.read_text() == f"# Bench\n\nbefore\n\n{BEGIN}\nnew table\n{END}\n\nafter\n"
    plain = tmp_path / "c.md"
    plain.write_text("# Bench\n\ntext\n")
    write_doc(f"{BEGIN}\nt\n{END}", plain)
    assert plain.read_text() == f"# Bench\n\ntext\n\n{BEGIN}\nt\n{END}\n"


def test_quick_suite_row_writes_a_table_with_its_command(tmp_path: Path) -> None:
    doc = tmp_path / "bench.md"
    doc.write_text(f"# Bench\n\nkept\n\n{BEGIN}\n{END}\n")
    proc = subprocess.run(
        [sys.executable, "-m", "loadtests.suite", "--quick", "--only", "expedition-closed-memory"]
        + ["--doc", str(doc), "--results", str(tmp_path / "results")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    text = doc.read_text()
    assert text.startswith("# Bench\n\nkept\n\n" + BEGIN) and text.rstrip().endswith(END)
    assert "python -m loadtests.bench --mode closed --game expedition --seats 4 --rooms 10" in text
    assert "| expedition-closed-memory | baseline |" in text and "| expedition-closed-memory | real |" in text
    assert "| expedition-closed-memory | **real / baseline** |" in text
    assert list((tmp_path / "results").glob("bench-*/expedition-closed-memory.json"))
