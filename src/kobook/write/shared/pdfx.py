"""PDF/X-4 for the press (``pdf: {standard: pdf/x-4}``), the same for every engine.

A printer's RIP needs to know which press the colours were meant for and where the
sheet is cut; a PDF for screens says neither.  None of the three engines writes
PDF/X by itself (WeasyPrint's variant keeps its colours in DeviceRGB, Typst and
XeLaTeX have none), so this module, run once on whichever engine's PDF after
``trim.py``, makes it say so:

* an ``/OutputIntents`` entry (``/GTS_PDFX``) with the press's CMYK profile embedded —
  FOGRA39 (ISO 12647-2 coated offset, the characterisation Korean printers accept for
  art paper) from TeX Live's ``colorprofiles``, or ``pdf.output-profile`` in the book;
* every ``DeviceRGB`` made device-independent: ``/DefaultRGB`` (sRGB) in every
  resource dictionary, and images, shadings and transparency groups pointed at the
  same ICC space, so the RIP converts the engines' RGB to the press's CMYK;
* an XMP packet that says ``pdfxid:GTS_PDFXVersion PDF/X-4``, with the title, the
  dates and ``Trapped`` written alike in the document information;
* a ``/TrimBox`` on every page and the header of PDF 1.6;
* no link annotations: a press sheet has nothing to click, and PDF/X keeps
  annotations off the printed area.

Nothing here validates the file against ISO 15930-7 (no validator is free to run
here); the tests check each of the conditions above.
"""

from __future__ import annotations

import datetime
import shutil
import subprocess
import uuid
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from ...errors import KobookError
from .packing import stream_object, write_packed
from .pdftags import without_annotations

# TeX Live's colorprofiles package (Debian's texlive-base) ships FOGRA39.
FOGRA39 = "FOGRA39L_coated.icc"
TEXLIVE_PROFILES = Path("/usr/share/texlive/texmf-dist/tex/generic/colorprofiles")
ICC_REGISTRY = "http://www.color.org"
# What a PDF/X page may carry over its printed area.
PRINTER_ANNOTATIONS = {"/PrinterMark", "/TrapNet"}


@dataclass(frozen=True)
class Press:
    """The printing condition a PDF/X names: the profile's bytes, the condition's
    identifier (a registered name, or ``Custom``) and its human description."""

    profile: bytes
    identifier: str
    info: str


def icc_description(data: bytes) -> str:
    """The ``desc`` tag of an ICC profile (v2 ``desc`` or v4 ``mluc``), '' if absent."""
    count = int.from_bytes(data[128:132], "big")
    for i in range(min(count, 200)):
        entry = data[132 + 12 * i : 144 + 12 * i]
        if entry[:4] != b"desc":
            continue
        start = int.from_bytes(entry[4:8], "big")
        tag = data[start : start + int.from_bytes(entry[8:12], "big")]
        if tag[:4] == b"desc":
            length = int.from_bytes(tag[8:12], "big")
            return tag[12 : 12 + length].rstrip(b"\0").decode("latin-1").strip()
        if tag[:4] == b"mluc" and len(tag) >= 28:
            size = int.from_bytes(tag[20:24], "big")
            offset = int.from_bytes(tag[24:28], "big")
            return tag[offset : offset + size].decode("utf-16-be", "replace").strip()
    return ""


def press_profile(data: bytes, where: Path) -> Press:
    """The press ``data`` describes, when it is a CMYK output (printer) profile; else
    PDF003 naming ``where``."""
    if len(data) < 132 or data[36:40] != b"acsp":
        problem = "is not an ICC colour profile"
    elif data[16:20] != b"CMYK" or data[12:16] != b"prtr":
        problem = "is not a CMYK printer profile (a press's output profile)"
    else:
        description = icc_description(data) or where.name
        registered = "FOGRA39" if "FOGRA39" in description.upper() else "Custom"
        return Press(data, registered, description)
    raise KobookError(
        f"the PDF/X output profile {where.name} {problem}",
        code="PDF003",
        file=where,
        hint="ask the printer for its CMYK profile (.icc), or drop pdf.output-profile for FOGRA39",
    )


def default_profile() -> Path | None:
    """FOGRA39 from TeX Live, where it is installed; None when it is not."""
    path = TEXLIVE_PROFILES / FOGRA39
    if path.is_file():
        return path
    if shutil.which("kpsewhich"):
        found = subprocess.run(
            ["kpsewhich", FOGRA39], capture_output=True, text=True, timeout=30, check=False
        ).stdout.strip()
        if found and Path(found).is_file():
            return Path(found)
    return None


def find_press(chosen: Path | None, config_file: Path | None) -> Press:
    """The press of ``chosen`` (``pdf.output-profile``, resolved inside the book), else
    FOGRA39; PDF002 when no profile can be read."""
    path = chosen or default_profile()
    if path is None:
        raise KobookError(
            "PDF/X needs a CMYK output profile and FOGRA39 is not installed",
            code="PDF002",
            file=config_file,
            hint="install texlive-base (bash scripts/install-system-deps.sh --tex), or set "
            "pdf: {output-profile: press.icc} to the printer's profile in the book folder",
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise KobookError(
            f"cannot read the PDF/X output profile {path.name}: {exc.strerror}",
            code="PDF002",
            file=config_file,
            hint="pdf.output-profile names a .icc file inside the book folder",
        ) from None
    return press_profile(data, path)


def pdf_date(moment: datetime.datetime) -> str:
    """``D:20261126000000+00'00'``: the document information's form of a time."""
    return moment.strftime("D:%Y%m%d%H%M%S+00'00'")


def xmp(title: str, lang: str, moment: datetime.datetime, producer: str) -> bytes:
    """The XMP packet of a PDF/X-4 file, whose title and dates are the document
    information's."""
    stamp = moment.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    document = uuid.uuid5(uuid.NAMESPACE_URL, f"kobook:{title}:{stamp}")
    packet = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about=""
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
 xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
 xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}</rdf:li></rdf:Alt></dc:title>
<dc:language><rdf:Bag><rdf:li>{escape(lang)}</rdf:li></rdf:Bag></dc:language>
<xmp:CreateDate>{stamp}</xmp:CreateDate>
<xmp:ModifyDate>{stamp}</xmp:ModifyDate>
<xmp:MetadataDate>{stamp}</xmp:MetadataDate>
<xmp:CreatorTool>kobook</xmp:CreatorTool>
<pdf:Producer>{escape(producer)}</pdf:Producer>
<pdf:Trapped>False</pdf:Trapped>
<xmpMM:DocumentID>uuid:{document}</xmpMM:DocumentID>
<xmpMM:InstanceID>uuid:{document}</xmpMM:InstanceID>
<xmpMM:VersionID>1</xmpMM:VersionID>
<xmpMM:RenditionClass>default</xmpMM:RenditionClass>
<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
    return packet.encode("utf-8")


def device_independent(root: Any, rgb: Any) -> None:
    """Point every ``DeviceRGB`` under ``root`` (an object and what it holds directly)
    at the sRGB space ``rgb``, and give every resource dictionary a ``/DefaultRGB``."""
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject

    device = NameObject("/DeviceRGB")
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if isinstance(node, IndirectObject) or id(node) in seen:
            continue  # indirect objects get their own walk
        seen.add(id(node))
        if isinstance(node, DictionaryObject):
            for key in ("/ColorSpace", "/CS"):
                if node.get(key) == device:
                    node[NameObject(key)] = rgb
            resources = node.get("/Resources")
            if resources is not None:
                resources = resources.get_object()
                spaces = resources.get("/ColorSpace")
                if spaces is None:
                    spaces = DictionaryObject()
                    resources[NameObject("/ColorSpace")] = spaces
                spaces = spaces.get_object()
                spaces[NameObject("/DefaultRGB")] = rgb
            stack.extend(v for k, v in node.items() if k != "/Parent")
        elif isinstance(node, ArrayObject):
            for i, item in enumerate(node):
                if item == device and i:  # /Indexed, /Separation, /DeviceN bases
                    node[i] = rgb
            stack.extend(node)


def press_ready(
    src: Path, dst: Path, press: Press, title: str, lang: str, epoch: int | None
) -> None:
    """Write ``src`` to ``dst`` as PDF/X-4 for ``press`` (see the module's list)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        NameObject,
        NumberObject,
        TextStringObject,
    )

    writer = PdfWriter(clone_from=PdfReader(src))

    def icc(data: bytes, components: int) -> Any:
        return writer._add_object(stream_object(data, {"/N": NumberObject(components)}))

    srgb = (files("weasyprint.pdf") / "sRGB2014.icc").read_bytes()
    rgb = writer._add_object(ArrayObject([NameObject("/ICCBased"), icc(srgb, 3)]))
    for number in range(len(writer._objects)):
        held = writer._objects[number]
        if held is not None:
            device_independent(held, rgb)
    dropped: set[int] = set()
    for page in writer.pages:
        if "/TrimBox" not in page:
            page[NameObject("/TrimBox")] = ArrayObject(page.cropbox)
        annotations = page.get("/Annots")
        if annotations is not None:
            kept = ArrayObject()
            for annotation in annotations.get_object():
                if annotation.get_object().get("/Subtype") in PRINTER_ANNOTATIONS:
                    kept.append(annotation)
                elif hasattr(annotation, "idnum"):
                    dropped.add(annotation.idnum)
            if kept:
                page[NameObject("/Annots")] = kept
            else:
                del page[NameObject("/Annots")]
    without_annotations(writer.root_object.get("/StructTreeRoot"), dropped)
    intent = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/OutputIntent"),
            NameObject("/S"): NameObject("/GTS_PDFX"),
            NameObject("/OutputConditionIdentifier"): TextStringObject(press.identifier),
            NameObject("/RegistryName"): TextStringObject(ICC_REGISTRY),
            NameObject("/Info"): TextStringObject(press.info),
            NameObject("/DestOutputProfile"): icc(press.profile, 4),
        }
    )
    catalog = writer.root_object
    catalog[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])
    catalog.pop(NameObject("/Version"), None)
    moment = (
        datetime.datetime.fromtimestamp(epoch, tz=datetime.timezone.utc)
        if epoch is not None
        else datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    )
    info: Any = writer.metadata or {}
    producer = str(info.get("/Producer") or "kobook")
    name = str(info.get("/Title") or title)
    metadata = DecodedStreamObject()
    metadata.set_data(xmp(name, lang, moment, producer))
    metadata[NameObject("/Type")] = NameObject("/Metadata")
    metadata[NameObject("/Subtype")] = NameObject("/XML")
    catalog[NameObject("/Metadata")] = writer._add_object(metadata)
    writer.add_metadata(
        {
            "/Title": name,
            "/Producer": producer,
            "/CreationDate": pdf_date(moment),
            "/ModDate": pdf_date(moment),
            "/Trapped": NameObject("/False"),
        }
    )
    writer.pdf_header = b"%PDF-1.6"
    writer.compress_identical_objects(remove_duplicates=False)  # the links, now unreferenced
    write_packed(writer, dst)


def press_ready_in_place(pdf: Path, press: Press, title: str, lang: str, epoch: int | None) -> None:
    """:func:`press_ready` on the written PDF, through a temporary file moved into place."""
    from .common import atomic_output

    with atomic_output(pdf) as tmp:
        press_ready(pdf, tmp, press, title, lang, epoch)
