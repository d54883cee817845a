"""Fonts: find what is installed (fontconfig), build CSS font stacks, refuse tofu.

A book without a font that covers Hangul would print boxes, so the build stops
with what to install instead.  Defaults follow Korean book typesetting: a serif
(명조) body, a sans (고딕) for headings and emphasis, a monospace that covers
Hangul for code, and an emoji font at the end of every stack.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from dataclasses import dataclass

from ..errors import KobookError
from ..load import Config

SERIF = ["Noto Serif CJK KR", "NanumMyeongjo", "UnBatang", "Baekmuk Batang"]
SANS = ["Noto Sans CJK KR", "NanumGothic", "NanumBarunGothic", "UnDotum", "Baekmuk Dotum"]
MONO = ["Noto Sans Mono CJK KR", "D2Coding", "NanumGothicCoding"]
EMOJI = ["Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji", "Twemoji", "EmojiOne Color"]
INSTALL_HINT = (
    "install a Korean font: bash scripts/install-system-deps.sh, or "
    "sudo apt-get install fonts-noto-cjk fonts-nanum fonts-noto-color-emoji"
)


@functools.cache
def fc_list(pattern: str = ":") -> frozenset[str]:
    """Family names fontconfig knows for ``pattern`` (all names of each family)."""
    if shutil.which("fc-list") is None:
        return frozenset()
    out = subprocess.run(
        ["fc-list", pattern, "family"], capture_output=True, text=True, check=False
    ).stdout
    names: set[str] = set()
    for line in out.splitlines():
        for name in line.split(","):
            if name.strip():
                names.add(name.strip())
    return frozenset(names)


def hangul_families() -> frozenset[str]:
    return fc_list(":lang=ko")


def emoji_families() -> list[str]:
    installed = fc_list()
    return [name for name in EMOJI if name in installed] or sorted(
        n for n in installed if "emoji" in n.lower()
    )


@dataclass(frozen=True)
class FontSet:
    """CSS font stacks for body, headings and code, and the emoji font.

    The emoji font is not put at the end of the text stacks: with a colour emoji
    font in the list, Pango measures spaces with it and justified lines come out
    ragged.  Emoji are wrapped in ``span.emoji`` instead (see ``passes.emoji``).
    """

    serif: list[str]
    sans: list[str]
    mono: list[str]
    emoji: list[str]

    @staticmethod
    def css(stack: list[str], generic: str) -> str:
        return ", ".join(f'"{name}"' for name in stack) + f", {generic}"

    @property
    def serif_css(self) -> str:
        return self.css(self.serif, "serif")

    @property
    def sans_css(self) -> str:
        return self.css(self.sans, "sans-serif")

    @property
    def mono_css(self) -> str:
        return self.css(self.mono, "monospace")

    @property
    def emoji_css(self) -> str:
        return self.css(self.emoji, "sans-serif")


def first_installed(names: list[str], pool: frozenset[str]) -> list[str]:
    return [n for n in names if n in pool]


def resolve_fonts(config: Config, *, require_hangul: bool = True) -> FontSet:
    """Fonts from metadata (``mainfont``, ``CJKmainfont``, ...) with installed defaults.

    A font named in metadata must be installed; with ``require_hangul``, at
    least one font of each stack must cover Hangul.
    """
    installed = fc_list()
    hangul = hangul_families()

    def pick(latin_key: str, cjk_key: str, defaults: list[str], role: str) -> list[str]:
        stack: list[str] = []
        for key in (latin_key, cjk_key):
            name = config.get(key)
            if not name:
                continue
            if installed and name not in installed:
                raise KobookError(
                    f"font '{name}' ({key}) is not installed",
                    code="FONT001",
                    file=config.path,
                    hint="installed Korean fonts: " + ", ".join(sorted(hangul)[:8])
                    if hangul
                    else INSTALL_HINT,
                )
            stack.append(str(name))
        stack += [n for n in first_installed(defaults, hangul) if n not in stack]
        if require_hangul and not any(n in hangul for n in stack):
            raise KobookError(
                f"no installed font covers Hangul for the {role} text",
                code="FONT002",
                file=config.path,
                hint=INSTALL_HINT,
            )
        return stack

    serif = pick("mainfont", "CJKmainfont", SERIF, "body")
    sans = pick("sansfont", "CJKsansfont", SANS + SERIF, "heading")
    mono = pick("monofont", "CJKmonofont", MONO + SANS, "code")
    emoji_name = config.get("emoji-font")
    emoji = [str(emoji_name)] if emoji_name else emoji_families()[:1]
    return FontSet(serif, sans, mono, emoji)
