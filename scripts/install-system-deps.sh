#!/usr/bin/env bash
# Install what pip cannot: Korean and emoji fonts, Pango (WeasyPrint), poppler
# (PDF text for tests), shellcheck (workflow tests), Chromium (HTML layout tests) and
# Node.js (accessibility checkers) with --dev, python3-venv and,
# with --tex, TeX Live's XeLaTeX + ko.TeX.
#
#   bash scripts/install-system-deps.sh            # what `make pdf` needs
#   bash scripts/install-system-deps.sh --tex --dev # what `make test` needs
#
# Only missing pieces are installed.  apt-get is used when it is there (through
# sudo when not root); elsewhere the script prints the packages to install and
# exits 1.
set -euo pipefail

want_tex=0
want_dev=0
for arg in "$@"; do
  case "$arg" in
    --tex) want_tex=1 ;;
    --dev) want_dev=1 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done

missing=()
need() { missing+=("$@"); }
has_font_lang() { command -v fc-list >/dev/null && [ -n "$(fc-list ":lang=$1" family 2>/dev/null | head -n1)" ]; }
# grep -c, not grep -q: -q stops reading at the first match, the writer then dies of
# SIGPIPE and, with pipefail, the pipeline fails, so a present package looked missing.
has_font_named() { command -v fc-list >/dev/null && fc-list : family 2>/dev/null | grep -ci "$1" >/dev/null; }

command -v fc-list >/dev/null || need fontconfig
has_font_lang ko || need fonts-noto-cjk fonts-nanum
has_font_named "Noto Serif CJK KR" || need fonts-noto-cjk
# ziamath draws Hangul inside math from a TrueType font (it cannot read .ttc).
has_font_named "NanumMyeongjo" || need fonts-nanum
# The default math font of both PDF engines (else STIX Two Math, bundled with ziamath).
has_font_named "Latin Modern Math" || need fonts-lmodern
has_font_named "emoji" || need fonts-noto-color-emoji
# Scripts translations quote in their examples (the Rust book's strings hold Hindi, Thai,
# Hebrew and Arabic): every engine falls back to these instead of drawing boxes.
for lang in hi th he ar; do has_font_lang "$lang" || { need fonts-noto-core; break; }; done
ldconfig -p 2>/dev/null | grep -c 'libpango-1.0.so' >/dev/null || need libpango-1.0-0 libpangoft2-1.0-0
ldconfig -p 2>/dev/null | grep -c 'libharfbuzz-subset' >/dev/null || need libharfbuzz-subset0
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need python3-venv python3-pip
if [ "$want_dev" = 1 ]; then
  command -v pdftotext >/dev/null || need poppler-utils
  command -v pdftoppm >/dev/null || need poppler-utils
  # actionlint (a dev dependency) runs shellcheck on the workflows' run: scripts when it is there.
  command -v shellcheck >/dev/null || need shellcheck
  # Headless Chromium lays the HTML pages out in tests (Debian's package; no download).
  command -v chromium >/dev/null || command -v chromium-browser >/dev/null || need chromium
  # Selenium drives it through Debian's chromedriver (the browser tests download nothing).
  command -v chromedriver >/dev/null || need chromium-driver
  # EPUBCheck (the W3C's validator; Debian's package brings a JRE) checks every EPUB the tests build.
  command -v epubcheck >/dev/null || need epubcheck
  # Node.js runs the accessibility checkers (axe-core, Ace by DAISY) that
  # scripts/install-node-tools.sh installs from npm.
  command -v node >/dev/null || need nodejs
  command -v npm >/dev/null || need npm
fi
if [ "$want_tex" = 1 ]; then
  command -v xelatex >/dev/null || need texlive-xetex
  kpse() { command -v kpsewhich >/dev/null && [ -n "$(kpsewhich "$1" 2>/dev/null)" ]; }
  kpse kotex.sty || need texlive-lang-korean
  kpse xeCJK.sty || need texlive-lang-chinese
  kpse ctexhook.sty || need texlive-lang-chinese
  kpse fvextra.sty || need texlive-latex-extra
  kpse framed.sty || need texlive-latex-extra
  # soul: pandoc's LaTeX for strikeout, underline and <mark> (\st, \ul, \hl).
  kpse soul.sty || need texlive-plain-generic
  kpse tcolorbox.sty || need texlive-latex-extra
  kpse lmodern.sty || need lmodern
  kpse unicode-math.sty || need texlive-latex-extra texlive-science
  command -v latexmk >/dev/null || need latexmk
  # SVG → PDF for LaTeX (pandoc's own recipe and the benchmark use it too).
  command -v rsvg-convert >/dev/null || need librsvg2-bin
fi

if [ "${#missing[@]}" -eq 0 ]; then
  echo "system dependencies: all present"
  exit 0
fi
# Unique, in order.
packages=$(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++' | tr '\n' ' ')

if ! command -v apt-get >/dev/null; then
  echo "kobook needs these (Debian/Ubuntu package names): $packages" >&2
  echo "Install the equivalents with your package manager, e.g.:" >&2
  echo "  Fedora: sudo dnf install google-noto-sans-cjk-fonts google-noto-serif-cjk-fonts google-noto-emoji-color-fonts nhn-nanum-fonts-common pango poppler-utils texlive-xetex texlive-kotex" >&2
  echo "  macOS:  brew install pango poppler && brew install --cask font-noto-serif-cjk-kr font-noto-sans-cjk-kr font-noto-color-emoji font-nanum-myeongjo mactex-no-gui" >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null; then
    sudo="sudo"
  else
    echo "run as root: apt-get update && apt-get install -y $packages" >&2
    exit 1
  fi
fi
echo "installing: $packages"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! $sudo apt-get install -y -q --no-install-recommends $packages; then
  $sudo apt-get update -q
  # shellcheck disable=SC2086
  $sudo apt-get install -y -q --no-install-recommends $packages
fi
command -v fc-cache >/dev/null && fc-cache -f >/dev/null 2>&1 || true
