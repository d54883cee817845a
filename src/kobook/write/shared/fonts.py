"""Fonts: find what is installed (fontconfig), build CSS font stacks, refuse tofu.

A book without a font that covers Hangul would print boxes, so the build stops
with what to install instead.  Defaults follow Korean book typesetting: a serif
(명조) body, a sans (고딕) for headings and emphasis, a monospace that covers
Hangul for code, and an emoji font at the end of every stack.
"""

from __future__ import annotations

import functools
import shutil
from dataclasses import dataclass, field

from ... import limits, tools
from ...errors import Diagnostic, KobookError, Location
from ...model import Config

# Default stacks per language (kobook.lang.language_of): the book's own script first.
SERIF_BY_LANGUAGE = {
    "ko": ["Noto Serif CJK KR", "NanumMyeongjo", "UnBatang", "Baekmuk Batang"],
    "zh-Hans": ["Noto Serif CJK SC", "Source Han Serif SC", "AR PL UMing CN", "Noto Sans CJK SC"],
    "zh-Hant": ["Noto Serif CJK TC", "Source Han Serif TC", "AR PL UMing TW", "Noto Sans CJK TC"],
    "ja": ["Noto Serif CJK JP", "Source Han Serif JP", "IPAexMincho", "IPAMincho"],
}
SANS_BY_LANGUAGE = {
    "ko": ["Noto Sans CJK KR", "NanumGothic", "NanumBarunGothic", "UnDotum", "Baekmuk Dotum"],
    "zh-Hans": [
        "Noto Sans CJK SC",
        "Source Han Sans SC",
        "WenQuanYi Zen Hei",
        "Droid Sans Fallback",
    ],
    "zh-Hant": [
        "Noto Sans CJK TC",
        "Source Han Sans TC",
        "WenQuanYi Zen Hei",
        "Droid Sans Fallback",
    ],
    "ja": ["Noto Sans CJK JP", "Source Han Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic"],
}
MONO_BY_LANGUAGE = {
    "ko": ["Noto Sans Mono CJK KR", "D2Coding", "NanumGothicCoding"],
    "zh-Hans": ["Noto Sans Mono CJK SC", "WenQuanYi Zen Hei Mono"],
    "zh-Hant": ["Noto Sans Mono CJK TC", "WenQuanYi Zen Hei Mono"],
    "ja": ["Noto Sans Mono CJK JP", "IPAGothic"],
}
# fontconfig's name for the script a book's body font must cover.
FC_LANG = {"ko": "ko", "en": "ko", "zh-Hans": "zh-cn", "zh-Hant": "zh-tw", "ja": "ja"}
SCRIPT_NAME = {
    "ko": "Hangul",
    "en": "Hangul",
    "zh-Hans": "Simplified Chinese",
    "zh-Hant": "Traditional Chinese",
    "ja": "Japanese",
}
SERIF = SERIF_BY_LANGUAGE["ko"]
SANS = SANS_BY_LANGUAGE["ko"]
MONO = MONO_BY_LANGUAGE["ko"]
EMOJI = ["Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji", "Twemoji", "EmojiOne Color"]
INSTALL_HINT = (
    "install a CJK font: bash scripts/install-system-deps.sh, or "
    "sudo apt-get install fonts-noto-cjk fonts-nanum fonts-noto-color-emoji"
)


def stacks_for(language: str) -> tuple[list[str], list[str], list[str]]:
    """Default serif, sans and mono stacks: the book's language, then Korean as fallback."""
    own = language if language in SERIF_BY_LANGUAGE else "ko"
    serif = SERIF_BY_LANGUAGE[own] + [n for n in SERIF if n not in SERIF_BY_LANGUAGE[own]]
    sans = SANS_BY_LANGUAGE[own] + [n for n in SANS if n not in SANS_BY_LANGUAGE[own]]
    mono = MONO_BY_LANGUAGE[own] + [n for n in MONO if n not in MONO_BY_LANGUAGE[own]]
    return serif, sans, mono


def fontconfig(*args: str) -> str:
    """What ``fc-list``/``fc-match`` ``args`` prints; "" when fontconfig is missing or fails
    (callers then fall back to a default: a missing font is never an error here)."""
    if shutil.which(args[0]) is None:
        return ""
    try:
        return tools.run(list(args), timeout=limits.TOOL_TIMEOUT, what=args[0], text=True).stdout
    except OSError:
        return ""


def font_face(pattern: str) -> tuple[str, int] | None:
    """The file and face index fontconfig picks for ``pattern`` (a collection such as a
    ``.ttc`` holds several faces); None without fontconfig."""
    found = fontconfig("fc-match", "-f", "%{file}\n%{index}", pattern).split("\n")
    if not found or not found[0]:
        return None
    index = found[1] if len(found) > 1 else ""
    return found[0], int(index) if index.isdigit() else 0


@functools.cache
def fc_list(pattern: str = ":") -> frozenset[str]:
    """Family names fontconfig knows for ``pattern`` (all names of each family)."""
    out = fontconfig("fc-list", pattern, "family")
    names: set[str] = set()
    for line in out.splitlines():
        for name in line.split(","):
            if name.strip():
                names.add(name.strip())
    return frozenset(names)


def hangul_families() -> frozenset[str]:
    return fc_list(":lang=ko")


def script_families(language: str) -> frozenset[str]:
    """Installed families that cover the script of ``language`` (fontconfig's ``:lang=``)."""
    return fc_list(f":lang={FC_LANG.get(language, 'ko')}")


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
    ``named`` holds the metadata fonts (``mainfont``, ``CJKmainfont``, ...) that
    are installed; ``problems`` the FONT002 warnings for those that are not.
    """

    serif: list[str]
    sans: list[str]
    mono: list[str]
    emoji: list[str]
    named: dict[str, str] = field(default_factory=dict)
    problems: tuple[Diagnostic, ...] = ()

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


def squashed(name: str) -> str:
    """A family name as people write it in several ways: no case, spaces, hyphens or
    underscores ("Nanum Myeongjo", "nanum-myeongjo" and "NanumMyeongjo" are one)."""
    return "".join(c for c in name.casefold() if c not in " -_")


def installed_spelling(name: str, installed: frozenset[str]) -> str:
    """``name`` as fontconfig spells the installed family it means; else ``name``."""
    if name in installed:
        return name
    wanted = squashed(name)
    return next((family for family in sorted(installed) if squashed(family) == wanted), name)


def first_installed(names: list[str], pool: frozenset[str]) -> list[str]:
    return [n for n in names if n in pool]


def resolve_fonts(config: Config, *, require_script: bool = True) -> FontSet:
    """Fonts from metadata (``mainfont``, ``CJKmainfont``, ...) with installed defaults.

    The defaults follow the book's language (Noto CJK KR for Korean, SC/TC/JP
    for Chinese and Japanese).  A font named in metadata that is not installed
    (``PingFang SC`` from a Mac) is left out with a FONT002 warning naming the
    font used instead.  With ``require_script``, some font of each stack must
    cover the book's script, else FONT001: a PDF of boxes is not a result.
    """
    language = config.language
    installed = fc_list()
    covering = script_families(language)
    script = SCRIPT_NAME.get(language, "Hangul")
    serif_defaults, sans_defaults, mono_defaults = stacks_for(language)
    named: dict[str, str] = {}
    problems: list[Diagnostic] = []

    def pick(latin_key: str, cjk_key: str, defaults: list[str], role: str) -> list[str]:
        stack: list[str] = []
        fallback = first_installed(defaults, covering)
        for key in (latin_key, cjk_key):
            name = config.get(key)
            if not name:
                continue
            name = installed_spelling(str(name), installed)
            if installed and name not in installed:
                instead = fallback[0] if fallback else "none installed"
                problems.append(
                    Diagnostic(
                        "FONT002",
                        f"font '{name}' ({key}) is not installed; using {instead}, "
                        f"the default for {language}",
                        Location(config.path, config.line(key)),
                        f"install it, or name an installed font; {script} fonts here: "
                        + (", ".join(sorted(covering)[:8]) or "none"),
                        "warning",
                    )
                )
                continue
            named[key] = str(name)
            stack.append(str(name))
        stack += [n for n in fallback if n not in stack]
        if require_script and not any(n in covering for n in stack):
            raise KobookError(
                f"no installed font covers {script} for the {role} text",
                code="FONT001",
                file=config.path,
                hint=INSTALL_HINT,
            )
        return stack

    serif = pick("mainfont", "CJKmainfont", serif_defaults, "body")
    sans = pick("sansfont", "CJKsansfont", sans_defaults + serif_defaults, "heading")
    mono = pick("monofont", "CJKmonofont", mono_defaults + sans_defaults, "code")
    emoji_name = config.get("emoji-font")
    emoji = [str(emoji_name)] if emoji_name else emoji_families()[:1]
    return FontSet(serif, sans, mono, emoji, named, tuple(problems))
