"""``kobook doctor``: what the machine has for building Korean books, and what to install."""

from __future__ import annotations

import shutil

from . import limits, tools
from .write.registry import writers
from .write.shared.fonts import (
    EMOJI,
    SCRIPT_NAME,
    emoji_families,
    hangul_families,
    script_families,
    stacks_for,
)


def tex_report() -> list[tuple[bool, str]]:
    lines = []
    xelatex = shutil.which("xelatex")
    if xelatex:
        version = tools.run(
            [xelatex, "--version"], timeout=limits.TOOL_TIMEOUT, what="xelatex --version", text=True
        ).stdout
        lines.append((True, f"xelatex: {version.splitlines()[0] if version else xelatex}"))
        kpse = shutil.which("kpsewhich")
        for package in ("kotex.sty", "xeCJK.sty", "ctexhook.sty", "fvextra.sty"):
            found = ""
            if kpse:
                found = tools.run(
                    [kpse, package], timeout=limits.TOOL_TIMEOUT, what="kpsewhich", text=True
                ).stdout.strip()
            lines.append((bool(found), f"  {package}: {found or 'missing'}"))
    else:
        lines.append((False, "xelatex: missing (only needed for --engine xelatex)"))
    return lines


def engines_line() -> str:
    """The writers kobook has (``--engine`` takes the PDF ones): a list, not a check."""
    default, *others = [writer for writer in writers() if writer.output == "pdf"]
    rest = [writer.name for writer in writers() if writer.output != "pdf"]
    styled = [f"{writer.name} (a book with templates/{writer.templates}/)" for writer in others]
    engines = ", ".join([f"{default.name} (default)", *styled])
    return f"· PDF engines (--engine): {engines}; other writers: {', '.join(rest)}"


def report(language: str = "ko") -> tuple[bool, str]:
    """Return (everything needed for the default build is there, the report text).

    ``language`` (kobook.lang.language_of of the book's ``lang``) adds the fonts
    a Chinese or Japanese book needs.
    """
    from .parse.pandoc import pandoc_path, pandoc_version

    out: list[str] = [engines_line()]
    ok = True
    try:
        out.append(f"✓ pandoc {pandoc_version()} ({pandoc_path()})")
    except Exception as exc:  # a broken install is exactly what doctor reports
        ok = False
        out.append(f"✗ pandoc: {exc}")
    try:  # the default PDF engine's compiler (a wheel, as pip installed it)
        import typst

        out.append(f"✓ typst {getattr(typst, '__version__', '')}".rstrip())
    except Exception as exc:
        ok = False
        out.append(f"✗ typst: {exc}")
        out.append("  reinstall kobook: pip install --force-reinstall typst")
    try:
        import weasyprint

        out.append(f"✓ weasyprint {weasyprint.__version__}")
    except Exception as exc:
        ok = False
        out.append(f"✗ weasyprint: {exc}")
        out.append("  install Pango: sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0")
    hangul = sorted(hangul_families())
    if hangul:
        out.append(f"✓ fonts covering Hangul ({len(hangul)}): " + ", ".join(hangul[:12]))
    else:
        ok = False
        out.append("✗ no font covers Hangul: sudo apt-get install fonts-noto-cjk fonts-nanum")
    if language not in ("ko", "en"):
        script = SCRIPT_NAME[language]
        own = sorted(script_families(language))
        defaults = [n for n in stacks_for(language)[0] if n in own]
        if own:
            out.append(
                f"✓ fonts covering {script} for this book ({len(own)}): "
                + ", ".join((defaults + [n for n in own if n not in defaults])[:12])
            )
        else:
            ok = False
            out.append(f"✗ no font covers {script}: sudo apt-get install fonts-noto-cjk")
    emoji = emoji_families()
    if emoji:
        out.append(f"✓ emoji font: {emoji[0]}")
    else:
        ok = False
        out.append(
            f"✗ no emoji font ({', '.join(EMOJI[:2])}): sudo apt-get install fonts-noto-color-emoji"
        )
    try:
        from importlib.metadata import version

        out.append(f"✓ typst {version('typst')} (its compiler ships in the wheel: --engine typst)")
    except Exception as exc:  # optional engine: reported, not required
        out.append(f"✗ typst: {exc} (only needed for --engine typst: pip install typst)")
    from .write.html.search import pagefind

    program = pagefind()
    if program is not None:
        out.append(f"✓ pagefind {program} (the HTML book's search)")
    else:
        out.append("✗ pagefind: missing (the HTML book has no search): pip install 'pagefind[bin]'")
    for good, line in tex_report():
        mark = "✓" if good else "✗"
        out.append(f"   {mark} {line.strip()}" if line.startswith("  ") else f"{mark} {line}")
    if not ok:
        out.append("\nTo install everything: bash scripts/install-system-deps.sh (uses apt-get)")
    return ok, "\n".join(out)
