#!/usr/bin/env python3
"""Draw every figure the sample book uses into ``images/``.

SVG figures are written as plain strings; PNG figures are drawn with Pillow.
The output is deterministic (no timestamps, no randomness), so running the
script twice leaves ``git status`` clean.

    .venv/bin/python scripts/make_figures.py

Numbers follow "The Ultra-Scale Playbook" (Hugging Face, Apache-2.0) and the
papers it cites; the drawings themselves are new.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "images"
FONT = "Noto Sans CJK KR, sans-serif"
CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
CJK_BOLD = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")

# one palette for the whole book
BLUE = "#4C78A8"
ORANGE = "#F58518"
GREEN = "#54A24B"
RED = "#E45756"
PURPLE = "#B279A2"
TEAL = "#72B7B2"
GREY = "#BAB0AC"
INK = "#222222"
LIGHT = "#EEEEEE"

GB = 1e9


# --- SVG helpers


def svg_doc(width: int, height: int, body: list[str]) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}">\n'
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#FFFFFF"/>\n'
    )
    return head + "\n".join(body) + "\n</svg>\n"


def text(
    x: float,
    y: float,
    s: str,
    size: int = 14,
    anchor: str = "middle",
    weight: str = "normal",
    fill: str = INK,
    rotate: float | None = None,
) -> str:
    extra = f' transform="rotate({rotate:g} {x:g} {y:g})"' if rotate is not None else ""
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{fill}"{extra}>{escape(s)}</text>'
    )


def rect(
    x: float,
    y: float,
    w: float,
    h: float,
    fill: str,
    stroke: str = "none",
    rx: float = 0,
    sw: float = 1,
    dash: str | None = None,
    opacity: float = 1.0,
) -> str:
    d = f' stroke-dasharray="{dash}"' if dash else ""
    o = f' fill-opacity="{opacity:g}"' if opacity != 1.0 else ""
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{sw:g}"{d}{o}/>'
    )


def line(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    stroke: str = INK,
    sw: float = 1,
    dash: str | None = None,
    arrow: bool = False,
) -> str:
    d = f' stroke-dasharray="{dash}"' if dash else ""
    a = ' marker-end="url(#arrow)"' if arrow else ""
    return (
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}" '
        f'stroke-width="{sw:g}"{d}{a}/>'
    )


ARROW_DEF = (
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
    'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
    f'fill="{INK}"/></marker></defs>'
)


def legend(x: float, y: float, items: list[tuple[str, str]], step: float = 150) -> list[str]:
    out = []
    for i, (colour, label) in enumerate(items):
        out.append(rect(x + i * step, y - 11, 14, 14, colour))
        out.append(text(x + i * step + 20, y, label, 13, anchor="start"))
    return out


# --- model numbers


def activation_bytes(layers: float, seq: float, bs: float, hidden: float, heads: float) -> float:
    """Korthikanti et al. (2022): activations of a transformer without recomputation."""
    return layers * seq * bs * hidden * (34 + 5 * heads * seq / hidden)


LLAMA8B = {"psi": 8e9, "layers": 32, "hidden": 4096, "heads": 32}


# --- figure 1: memory


def memory_breakdown() -> str:
    m = LLAMA8B
    seqs = [1024, 2048, 4096, 8192]
    parts = [
        ("파라미터 (BF16, 2Ψ)", BLUE, lambda s: 2 * m["psi"] / GB),
        ("그래디언트 (BF16, 2Ψ)", ORANGE, lambda s: 2 * m["psi"] / GB),
        ("FP32 가중치 + Adam (12Ψ)", GREEN, lambda s: 12 * m["psi"] / GB),
        (
            "액티베이션",
            RED,
            lambda s: activation_bytes(m["layers"], s, 1, m["hidden"], m["heads"]) / GB,
        ),
    ]
    W, H = 800, 470
    x0, y0, plot_h, plot_w = 90, 400, 310, 600
    top = 550.0
    scale = plot_h / top
    body = [
        text(W / 2, 30, "8B 모델 한 스텝의 메모리 (마이크로배치 1, 재계산 없음)", 17, weight="bold")
    ]
    for gb in range(0, 551, 100):
        y = y0 - gb * scale
        body.append(line(x0, y, x0 + plot_w, y, LIGHT))
        body.append(text(x0 - 8, y + 5, f"{gb}", 12, anchor="end"))
    body.append(text(28, y0 - plot_h / 2, "메모리 (GB)", 14, rotate=-90))
    bar_w = 80
    for i, s in enumerate(seqs):
        x = x0 + 50 + i * 140
        y = y0
        total = 0.0
        for _, colour, f in parts:
            v = f(s)
            total += v
            h = v * scale
            body.append(rect(x, y - h, bar_w, h, colour, stroke="#FFFFFF", sw=0.8))
            y -= h
        body.append(text(x + bar_w / 2, y - 8, f"{total:.0f} GB", 13, weight="bold"))
        body.append(text(x + bar_w / 2, y0 + 22, f"seq {s}", 13))
    h100 = y0 - 80 * scale
    body.append(line(x0, h100, x0 + plot_w, h100, RED, 1.5, dash="6 4"))
    body.append(text(x0 + plot_w + 6, h100 + 4, "H100 80 GB", 12, anchor="start", fill=RED))
    body.append(line(x0, y0, x0 + plot_w, y0, INK, 1.2))
    body.append(line(x0, y0, x0, y0 - plot_h, INK, 1.2))
    body += legend(40, 455, [(c, n) for n, c, _ in parts], step=180)
    return svg_doc(W, H, body)


def recompute() -> str:
    m = LLAMA8B
    seqs = [2048, 4096, 8192]
    policies = [
        (
            "재계산 없음",
            RED,
            lambda s: activation_bytes(m["layers"], s, 1, m["hidden"], m["heads"]),
        ),
        ("선택적 재계산", ORANGE, lambda s: m["layers"] * s * m["hidden"] * 34),
        ("전체 재계산", GREEN, lambda s: m["layers"] * s * m["hidden"] * 2),
    ]
    W, H = 760, 440
    x0, y0, plot_h, plot_w = 90, 370, 290, 620
    top = 400.0
    scale = plot_h / top
    body = [
        text(W / 2, 30, "재계산 전략별 액티베이션 메모리 (8B, 마이크로배치 1)", 17, weight="bold")
    ]
    for gb in range(0, 401, 100):
        y = y0 - gb * scale
        body.append(line(x0, y, x0 + plot_w, y, LIGHT))
        body.append(text(x0 - 8, y + 5, f"{gb}", 12, anchor="end"))
    body.append(text(28, y0 - plot_h / 2, "액티베이션 (GB)", 14, rotate=-90))
    bar_w = 46
    for i, s in enumerate(seqs):
        gx = x0 + 45 + i * 200
        for j, (_, colour, f) in enumerate(policies):
            v = f(s) / GB
            h = max(v * scale, 1.5)
            x = gx + j * (bar_w + 6)
            body.append(rect(x, y0 - h, bar_w, h, colour))
            body.append(text(x + bar_w / 2, y0 - h - 6, f"{v:.1f}" if v < 10 else f"{v:.0f}", 12))
        body.append(text(gx + 1.5 * bar_w + 6, y0 + 22, f"seq {s}", 13))
    body.append(line(x0, y0, x0 + plot_w, y0, INK, 1.2))
    body.append(line(x0, y0, x0, y0 - plot_h, INK, 1.2))
    body += legend(150, 425, [(c, n) for n, c, _ in policies], step=160)
    return svg_doc(W, H, body)


# --- figure: data parallel


def data_parallel() -> str:
    W, H = 780, 400
    body = [
        ARROW_DEF,
        text(
            W / 2,
            30,
            "데이터 병렬화: 복제된 모델, 나뉜 배치, 그래디언트 all-reduce",
            17,
            weight="bold",
        ),
    ]
    n = 4
    for i in range(n):
        x = 40 + i * 185
        body.append(rect(x + 20, 55, 130, 34, TEAL, rx=6))
        body.append(text(x + 85, 77, f"마이크로배치 {i}", 13, fill="#FFFFFF", weight="bold"))
        body.append(line(x + 85, 89, x + 85, 113, arrow=True))
        body.append(rect(x, 116, 170, 150, "#F7F7F7", stroke=INK, rx=8))
        body.append(text(x + 85, 138, f"GPU {i}", 14, weight="bold"))
        body.append(rect(x + 15, 150, 140, 30, BLUE, rx=4))
        body.append(text(x + 85, 170, "모델 복제본 (같은 θ)", 12, fill="#FFFFFF"))
        body.append(rect(x + 15, 188, 140, 30, ORANGE, rx=4))
        body.append(text(x + 85, 208, f"순전파·역전파 → g{i}", 12, fill="#FFFFFF"))
        body.append(rect(x + 15, 226, 140, 30, GREEN, rx=4))
        body.append(text(x + 85, 246, "옵티마이저 스텝", 12, fill="#FFFFFF"))
        body.append(line(x + 85, 266, x + 85, 306, arrow=True))
        body.append(line(x + 100, 306, x + 100, 268, arrow=True))
    body.append(rect(40, 310, 725, 44, PURPLE, rx=8))
    body.append(
        text(
            W / 2 + 10,
            338,
            "All-Reduce:  g = (g0 + g1 + g2 + g3) / 4  →  모든 GPU가 같은 g를 받는다",
            14,
            fill="#FFFFFF",
            weight="bold",
        )
    )
    body.append(
        text(
            W / 2,
            385,
            "역전파가 끝난 버킷부터 통신을 시작하면 계산과 통신이 겹친다",
            13,
            fill="#555555",
        )
    )
    return svg_doc(W, H, body)


def zero_stages() -> str:
    psi, nd, k = 7.5, 64, 12
    stages = [
        ("기준 DP", 2 * psi, 2 * psi, k * psi),
        ("ZeRO-1", 2 * psi, 2 * psi, k * psi / nd),
        ("ZeRO-2", 2 * psi, 2 * psi / nd, k * psi / nd),
        ("ZeRO-3", 2 * psi / nd, 2 * psi / nd, k * psi / nd),
    ]
    W, H = 780, 360
    x0, plot_w = 130, 560
    scale = plot_w / 120.0
    body = [
        text(
            W / 2,
            30,
            "GPU 한 장의 모델 상태 메모리 (Ψ = 7.5B, k = 12, DP 랭크 64개)",
            17,
            weight="bold",
        )
    ]
    for gb in range(0, 121, 20):
        x = x0 + gb * scale
        body.append(line(x, 55, x, 290, LIGHT))
        body.append(text(x, 308, f"{gb} GB", 12))
    for i, (name, p, g, o) in enumerate(stages):
        y = 65 + i * 55
        body.append(text(x0 - 12, y + 26, name, 14, anchor="end", weight="bold"))
        x = x0
        for v, colour in ((p, BLUE), (g, ORANGE), (o, GREEN)):
            w = v * scale
            body.append(rect(x, y, w, 38, colour, stroke="#FFFFFF", sw=0.6))
            x += w
        total = p + g + o
        body.append(text(x + 8, y + 25, f"{total:.1f} GB", 13, anchor="start", weight="bold"))
    body += legend(
        150,
        342,
        [(BLUE, "파라미터 2Ψ"), (ORANGE, "그래디언트 2Ψ"), (GREEN, "옵티마이저 상태 kΨ")],
        step=170,
    )
    return svg_doc(W, H, body)


# --- figure: tensor parallel


def tp_split() -> str:
    W, H = 800, 420
    body = [
        ARROW_DEF,
        text(W / 2, 28, "텐서 병렬화에서 가중치를 자르는 두 방법", 17, weight="bold"),
    ]

    def block(
        x: float, y: float, w: float, h: float, colour: str, label: str, tc: str = "#FFFFFF"
    ) -> None:
        body.append(rect(x, y, w, h, colour, stroke=INK, sw=1))
        body.append(text(x + w / 2, y + h / 2 + 5, label, 13, fill=tc, weight="bold"))

    # column parallel
    body.append(text(200, 62, "(가) 열 방향 분할 (column-linear)", 15, weight="bold"))
    block(30, 90, 70, 120, GREY, "X", INK)
    body.append(text(115, 156, "×", 20))
    block(130, 90, 45, 120, BLUE, "W₁")
    block(175, 90, 45, 120, ORANGE, "W₂")
    body.append(text(240, 156, "=", 20))
    block(260, 90, 45, 120, BLUE, "Y₁")
    block(305, 90, 45, 120, ORANGE, "Y₂")
    body.append(text(200, 240, "X는 모든 GPU에 복제(broadcast)", 13))
    body.append(text(200, 260, "GPU i는 Yᵢ = X·Wᵢ만 계산", 13))
    body.append(text(200, 280, "전체 Y가 필요하면 all-gather", 13, fill=RED))
    # row parallel
    body.append(text(600, 62, "(나) 행 방향 분할 (row-linear)", 15, weight="bold"))
    block(430, 90, 35, 120, BLUE, "X₁")
    block(465, 90, 35, 120, ORANGE, "X₂")
    body.append(text(517, 156, "×", 20))
    block(535, 90, 90, 60, BLUE, "W₁")
    block(535, 150, 90, 60, ORANGE, "W₂")
    body.append(text(645, 156, "=", 20))
    block(665, 90, 100, 120, PURPLE, "Y₁ + Y₂")
    body.append(text(600, 240, "X는 열 방향으로 나뉘어(scatter) 들어옴", 13))
    body.append(text(600, 260, "GPU i는 부분합 Yᵢ = Xᵢ·Wᵢ를 계산", 13))
    body.append(text(600, 280, "합치려면 all-reduce", 13, fill=RED))
    # MLP composition
    body.append(rect(30, 310, 740, 90, "#F7F7F7", stroke=INK, rx=8))
    body.append(text(400, 334, "MLP 블록 = 열 분할 → 활성화 함수 → 행 분할", 14, weight="bold"))
    xs = [100, 245, 390, 535, 680]
    labels = ["X (복제)", "X·A (열 분할)", "GeLU (로컬)", "·B (행 분할)", "all-reduce"]
    colours = [GREY, BLUE, TEAL, ORANGE, RED]
    for i, (x, lab, c) in enumerate(zip(xs, labels, colours, strict=True)):
        body.append(rect(x - 55, 348, 110, 34, c, rx=5))
        body.append(text(x, 370, lab, 12, fill="#FFFFFF" if c != GREY else INK, weight="bold"))
        if i < len(xs) - 1:
            body.append(line(x + 57, 365, xs[i + 1] - 58, 365, arrow=True))
    return svg_doc(W, H, body)


# --- figure: pipeline


def simulate(
    p: int, m: int, order: Callable[[int], list[tuple[str, int]]], tf: int = 1, tb: int = 2
) -> list[list[tuple[str, int, int, int]]]:
    """List-schedule each stage's ops in ``order(stage)``; return (kind, mb, start, end)."""
    done: dict[tuple[str, int, int], int] = {}
    pending = [list(order(s)) for s in range(p)]
    free = [0] * p
    timeline: list[list[tuple[str, int, int, int]]] = [[] for _ in range(p)]
    while any(pending):
        progressed = False
        for s in range(p):
            if not pending[s]:
                continue
            kind, mb = pending[s][0]
            if kind == "F":
                dep = done.get(("F", s - 1, mb)) if s > 0 else 0
            else:
                dep = done.get(("B", s + 1, mb)) if s < p - 1 else done.get(("F", s, mb))
            if dep is None:
                continue
            start = max(free[s], dep)
            end = start + (tf if kind == "F" else tb)
            done[(kind, s, mb)] = end
            free[s] = end
            timeline[s].append((kind, mb, start, end))
            pending[s].pop(0)
            progressed = True
        if not progressed:
            raise RuntimeError("pipeline schedule deadlocked")
    return timeline


def afab(p: int, m: int) -> Callable[[int], list[tuple[str, int]]]:
    return lambda s: [("F", i) for i in range(m)] + [("B", i) for i in range(m)]


def one_f_one_b(p: int, m: int) -> Callable[[int], list[tuple[str, int]]]:
    def order(s: int) -> list[tuple[str, int]]:
        warm = min(p - s - 1, m)
        ops = [("F", i) for i in range(warm)]
        f, b = warm, 0
        while f < m:
            ops.append(("F", f))
            f += 1
            ops.append(("B", b))
            b += 1
        ops += [("B", i) for i in range(b, m)]
        return ops

    return order


def pipeline_schedule() -> str:
    p, m = 4, 8
    unit = 22
    W, H = 820, 470
    body = [
        text(
            W / 2,
            28,
            "파이프라인 스케줄 (스테이지 4개, 마이크로배치 8개, 역전파 = 순전파 × 2)",
            17,
            weight="bold",
        )
    ]
    x0 = 90

    def grid(y0: float, title: str, tl: list[list[tuple[str, int, int, int]]]) -> None:
        end = max(e for row in tl for *_, e in row)
        body.append(
            text(x0, y0 - 12, f"{title} — 총 {end} 단위 시간", 14, anchor="start", weight="bold")
        )
        for s, row in enumerate(tl):
            y = y0 + s * 32
            body.append(text(x0 - 10, y + 19, f"GPU {s}", 13, anchor="end"))
            body.append(rect(x0, y, end * unit, 28, LIGHT))
            for kind, mb, st, en in row:
                colour = BLUE if kind == "F" else ORANGE
                body.append(
                    rect(x0 + st * unit, y, (en - st) * unit, 28, colour, stroke="#FFFFFF", sw=1)
                )
                body.append(
                    text(
                        x0 + (st + en) / 2 * unit,
                        y + 19,
                        str(mb + 1),
                        12,
                        fill="#FFFFFF",
                        weight="bold",
                    )
                )

    t1 = simulate(p, m, afab(p, m))
    t2 = simulate(p, m, one_f_one_b(p, m))
    grid(70, "(가) AFAB: 모든 순전파 후 모든 역전파", t1)
    grid(260, "(나) 1F1B: 워밍업 후 순전파·역전파 교대", t2)
    body += legend(
        x0,
        430,
        [(BLUE, "순전파 F (숫자: 마이크로배치)"), (ORANGE, "역전파 B"), (LIGHT, "버블 (유휴)")],
        step=220,
    )
    body.append(
        text(
            W / 2,
            458,
            "두 스케줄의 버블 크기는 같고, 1F1B는 들고 있는 액티베이션이 p개로 줄어든다",
            13,
            fill="#555555",
        )
    )
    return svg_doc(W, H, body)


# --- figure: flash attention


def flash_tiling() -> str:
    W, H = 800, 400
    body = [
        ARROW_DEF,
        text(W / 2, 28, "FlashAttention의 타일링: S = QKᵀ를 HBM에 쓰지 않는다", 17, weight="bold"),
    ]
    # HBM
    body.append(rect(20, 50, 300, 320, "#F3F0FA", stroke=PURPLE, rx=10, sw=1.5))
    body.append(text(170, 74, "HBM (느리고 크다: 80 GB)", 14, weight="bold", fill=PURPLE))
    for j, (name, colour) in enumerate((("Q", BLUE), ("K", ORANGE), ("V", GREEN), ("O", RED))):
        x = 45 + j * 68
        for t in range(4):
            body.append(
                rect(
                    x,
                    95 + t * 55,
                    50,
                    50,
                    colour,
                    stroke="#FFFFFF",
                    sw=2,
                    opacity=1.0 if t == 1 else 0.45,
                )
            )
        body.append(text(x + 25, 330, name, 15, weight="bold"))
    body.append(text(170, 355, "블록 단위로 나눠 저장된 텐서", 12, fill="#555555"))
    # SRAM
    body.append(rect(470, 50, 310, 320, "#EEF6EE", stroke=GREEN, rx=10, sw=1.5))
    body.append(text(625, 74, "SM의 SRAM (빠르고 작다: ~256 KB)", 14, weight="bold", fill=GREEN))
    body.append(rect(495, 95, 60, 60, BLUE, stroke=INK))
    body.append(text(525, 131, "Qᵢ", 14, fill="#FFFFFF", weight="bold"))
    body.append(rect(575, 95, 60, 60, ORANGE, stroke=INK))
    body.append(text(605, 131, "Kⱼ", 14, fill="#FFFFFF", weight="bold"))
    body.append(rect(655, 95, 60, 60, GREEN, stroke=INK))
    body.append(text(685, 131, "Vⱼ", 14, fill="#FFFFFF", weight="bold"))
    body.append(rect(495, 180, 140, 60, "#FFFFFF", stroke=INK, dash="5 3"))
    body.append(text(565, 208, "Sᵢⱼ = QᵢKⱼᵀ", 13))
    body.append(text(565, 228, "(타일 하나만)", 12, fill="#555555"))
    body.append(rect(655, 180, 100, 60, "#FFFFFF", stroke=INK, dash="5 3"))
    body.append(text(705, 208, "mᵢ, ℓᵢ", 13))
    body.append(text(705, 228, "(행별 통계)", 12, fill="#555555"))
    body.append(rect(495, 265, 260, 50, RED, stroke=INK))
    body.append(
        text(625, 295, "Oᵢ ← 보정 후 누적 (온라인 소프트맥스)", 13, fill="#FFFFFF", weight="bold")
    )
    body.append(text(625, 345, "j를 돌며 Kⱼ, Vⱼ만 바꿔 읽는다", 12, fill="#555555"))
    body.append(line(320, 150, 468, 125, BLUE, 2, arrow=True))
    body.append(text(394, 122, "읽기", 13))
    body.append(line(468, 290, 322, 290, RED, 2, arrow=True))
    body.append(text(394, 280, "Oᵢ만 쓰기", 13))
    return svg_doc(W, H, body)


# --- PNG helpers


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = CJK_BOLD if bold and CJK_BOLD.exists() else CJK_FONT
    if path.exists():
        return ImageFont.truetype(str(path), size, index=1)  # index 1 = KR in the .ttc
    return ImageFont.load_default()


def centred(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: str = INK,
    bold: bool = False,
) -> None:
    draw.text(xy, s, font=font(size, bold), fill=fill, anchor="mm")


def save_png(img: Image.Image, name: str) -> Path:
    path = OUT / name
    img = img.convert("P", palette=Image.Palette.ADAPTIVE, colors=64)
    img.save(path, format="PNG", optimize=True)
    return path


def tp_scaling() -> Image.Image:
    # relative per-GPU throughput; the 8 -> 16 step loses about 43% as in the playbook's runs
    degrees = [1, 2, 4, 8, 16, 32]
    rel = [1.00, 0.97, 0.92, 0.85, 0.48, 0.30]
    W, H = 1200, 700
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    centred(d, (W / 2, 45), "텐서 병렬 차수에 따른 GPU당 상대 처리량 (개념도)", 34, bold=True)
    x0, y0, pw, ph = 150, 580, 980, 450
    top = 1.2
    for i in range(7):
        v = i * 0.2
        y = y0 - v / top * ph
        d.line((x0, y, x0 + pw, y), fill=LIGHT, width=2)
        d.text((x0 - 15, y), f"{v:.1f}", font=font(22), fill=INK, anchor="rm")
    d.line((x0, y0, x0 + pw, y0), fill=INK, width=3)
    d.line((x0, y0, x0, y0 - ph), fill=INK, width=3)
    bw = 110
    for i, (deg, r) in enumerate(zip(degrees, rel, strict=True)):
        x = x0 + 50 + i * 155
        colour = BLUE if deg <= 8 else RED
        d.rectangle((x, y0 - r / top * ph, x + bw, y0), fill=colour)
        centred(d, (x + bw / 2, y0 - r / top * ph - 22), f"{r:.2f}", 24, bold=True)
        centred(d, (x + bw / 2, y0 + 28), f"TP={deg}", 24)
    nx = x0 + 50 + 3.5 * 155 + bw / 2 - 20
    d.line((nx, y0 - ph, nx, y0), fill=GREY, width=3)
    centred(d, (nx - 130, y0 - ph + 25), "← 노드 안 (NVLink)", 22, fill="#555555")
    centred(d, (nx + 140, y0 - ph + 25), "노드 사이 (InfiniBand) →", 22, fill="#555555")
    centred(
        d,
        (W / 2, 655),
        "GPU 8장짜리 노드를 넘는 순간 통신이 느린 망으로 나가며 처리량이 크게 꺾인다",
        24,
        fill="#555555",
    )
    return img


def gpu_memory() -> Image.Image:
    W, H = 1200, 760
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    centred(d, (W / 2, 45), "H100 GPU의 메모리 계층", 36, bold=True)
    levels = [
        ("레지스터", "SM마다 256 KB · 스레드 전용", "가장 빠름", PURPLE),
        ("공유 메모리 / L1", "SM마다 합쳐서 256 KB · 블록 안에서 공유", "매우 빠름", GREEN),
        ("L2 캐시", "칩 전체 50 MB · 모든 SM이 공유", "빠름", ORANGE),
        ("HBM3 (전역 메모리)", "80 GB · 모든 SM이 공유", "3.35 TB/s", BLUE),
    ]
    top, step = 110, 140
    cx = 460
    for i, (name, detail, speed, colour) in enumerate(levels):
        half = 190 + i * 90
        y = top + i * step
        d.polygon(
            [(cx - half, y + 120), (cx - half + 40, y), (cx + half - 40, y), (cx + half, y + 120)],
            fill=colour,
        )
        centred(d, (cx, y + 42), name, 30, fill="white", bold=True)
        centred(d, (cx, y + 85), detail, 22, fill="white")
        centred(d, (1080, y + 60), speed, 26, bold=True)
    d.line((960, top + 10, 960, top + 4 * step - 30), fill=INK, width=4)
    d.polygon(
        [(948, top + 4 * step - 30), (972, top + 4 * step - 30), (960, top + 4 * step - 5)],
        fill=INK,
    )
    centred(d, (1080, top - 25), "속도", 26, bold=True)
    centred(
        d,
        (W / 2, 715),
        "132개 SM이 각자 레지스터와 공유 메모리를 가지며, 아래로 갈수록 크고 느리다",
        24,
        fill="#555555",
    )
    return img


def profiler_trace() -> Image.Image:
    """A mock profiler timeline: backward kernels on one stream, NCCL buckets on another."""
    W, H = 1200, 420
    img = Image.new("RGB", (W, H), "#2B2B2B")
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 40), fill="#3C3F41")
    d.text((20, 20), "trace_rank0.json — step 12", font=font(20), fill="#DDDDDD", anchor="lm")
    for i in range(13):
        x = 200 + i * 75
        d.line((x, 40, x, H), fill="#3A3A3A", width=1)
        d.text((x + 3, 55), f"{i * 5} ms", font=font(16), fill="#999999", anchor="lm")
    rows = [("CPU thread", 110), ("stream 7 (계산)", 190), ("stream 22 (NCCL)", 270)]
    for name, y in rows:
        d.text((15, y), name, font=font(20), fill="#DDDDDD", anchor="lm")
    # cpu launches
    for i in range(30):
        x = 205 + i * 31
        d.rectangle((x, 95, x + 18, 125), fill="#6A8759")
    # forward then backward kernels on compute stream
    x = 200
    for _ in range(8):
        d.rectangle((x, 172, x + 38, 208), fill=BLUE)
        x += 40
    for i in range(8):
        d.rectangle((x, 172, x + 70, 208), fill=ORANGE)
        centred(d, (x + 35, 190), f"bwd {8 - i}", 16, fill="white")
        x += 72
    d.rectangle((x, 172, x + 60, 208), fill=GREEN)
    centred(d, (x + 30, 190), "optim", 16, fill="white")
    # all-reduce buckets overlap backward
    for i, start in enumerate((600, 745, 890, 1035)):
        d.rectangle((start, 252, start + 120, 288), fill=PURPLE)
        centred(d, (start + 60, 270), f"allreduce b{i}", 16, fill="white")
    d.text(
        (20, 370),
        "ncclKernel_AllReduce_RING_LL_Sum_bf16 — 역전파 커널과 시간축에서 겹쳐 실행됨",
        font=font(20),
        fill="#CCCCCC",
        anchor="lm",
    )
    return img


# --- main

SVGS: dict[str, Callable[[], str]] = {
    "memory-breakdown.svg": memory_breakdown,
    "recompute.svg": recompute,
    "data-parallel.svg": data_parallel,
    "zero-stages.svg": zero_stages,
    "tp-split.svg": tp_split,
    "pipeline-schedule.svg": pipeline_schedule,
    "flash-tiling.svg": flash_tiling,
}
PNGS: dict[str, Callable[[], Image.Image]] = {
    "tp-scaling.png": tp_scaling,
    "gpu-memory.png": gpu_memory,
    "profiler-trace.png": profiler_trace,
}


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for name, make in SVGS.items():
        (OUT / name).write_text(make(), encoding="utf-8")
        print(f"wrote images/{name}")
    for name, draw in PNGS.items():
        path = save_png(draw(), name)
        print(f"wrote images/{name} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
