#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The web UI's Chinese font: a subset of Noto Sans CJK SC Regular with only the CJK characters our texts use.

    python3 web/tools/subset-font.py            # writes web/fonts/GuoxiangCJK.woff2 and web/fonts/GuoxiangCJK.json
    python3 web/tools/subset-font.py --check    # fails if the committed font lacks a character or is not what
                                                # this script builds now (CI runs this before the web build)

The texts: every file with a text extension under web/src, web/index.html, course/ and crates/*/src/ (the review
and tactics sentences, rules explanations, server messages, opening names). The characters: CJK ideographs, CJK
symbols and punctuation (、。「」…), full-width forms (，：（）！？) and the other CJK blocks of UNICODE_RANGE below,
which style.css's @font-face repeats as its unicode-range: Latin text never uses this font.

Needs: Debian's fonts-noto-cjk (apt-get install -y fonts-noto-cjk; SIL Open Font License 1.1) and, from PyPI,
fonttools and brotli at the versions pinned below (python3 -m pip install fonttools==4.69.1 brotli==1.2.1). The
output is deterministic: the same source font and the same fonttools and brotli give the same bytes (the code
points are sorted, the source's timestamps are kept, WOFF2 has none of its own).
"""

import argparse
import hashlib
import io
import json
import os
import sys
from pathlib import Path

FONTTOOLS_VERSION = "4.69.1"
BROTLI_VERSION = "1.2.1"
SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
SOURCE_FAMILY = "Noto Sans CJK SC"  # the face of the collection we take
FAMILY = "GuoxiangCJK"
INSTALL = (
    f"apt-get install -y fonts-noto-cjk && python3 -m pip install fonttools=={FONTTOOLS_VERSION} brotli=={BROTLI_VERSION}"
)

# The blocks the font covers (and style.css's unicode-range): CJK radicals, CJK symbols and punctuation, CJK
# strokes, enclosed CJK, CJK compatibility, CJK extension A, the unified ideographs, compatibility ideographs,
# vertical and compatibility forms, half-width and full-width forms.
UNICODE_RANGE = [
    (0x2E80, 0x2FDF),
    (0x3000, 0x303F),
    (0x31C0, 0x31EF),
    (0x3200, 0x33FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
]
TEXT_EXTENSIONS = {".rs", ".ts", ".tsx", ".css", ".html", ".toml", ".tsv", ".csv", ".txt", ".json"}

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "web" / "fonts" / f"{FAMILY}.woff2"
MANIFEST = ROOT / "web" / "fonts" / f"{FAMILY}.json"


def in_range(cp):
    return any(lo <= cp <= hi for lo, hi in UNICODE_RANGE)


def text_files():
    """The texts' files, in a fixed order (sorted paths)."""
    roots = [ROOT / "web" / "src", ROOT / "course"]
    crates = ROOT / "crates"
    if crates.is_dir():
        roots += sorted(p / "src" for p in crates.iterdir() if (p / "src").is_dir())
    files = [ROOT / "web" / "index.html"]
    for r in roots:
        for dirpath, dirnames, filenames in os.walk(r):
            dirnames.sort()
            files += [Path(dirpath) / f for f in sorted(filenames) if Path(f).suffix in TEXT_EXTENSIONS]
    return [f for f in files if f.is_file()]


def used_characters():
    """{code point: first place (path:line) it occurs} over the texts."""
    first = {}
    for f in text_files():
        try:
            text = f.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            sys.exit(f"subset-font: {f.relative_to(ROOT)} is not UTF-8 ({e})")
        for lineno, line in enumerate(text.splitlines(), 1):
            for ch in line:
                cp = ord(ch)
                if cp >= 0x2E80 and in_range(cp) and cp not in first:
                    first[cp] = f"{f.relative_to(ROOT)}:{lineno}"
    return first


def need_tools():
    try:
        import brotli
        import fontTools
    except ImportError as e:
        sys.exit(f"subset-font: {e.name} is missing; install: {INSTALL}")
    got = {"fonttools": fontTools.version, "brotli": brotli.__version__}
    want = {"fonttools": FONTTOOLS_VERSION, "brotli": BROTLI_VERSION}
    if got != want:
        sys.exit(f"subset-font: need fonttools {FONTTOOLS_VERSION} and brotli {BROTLI_VERSION}, found "
                 f"fonttools {got['fonttools']} and brotli {got['brotli']}; install: {INSTALL}")
    return got


def face_index(path):
    from fontTools.ttLib import TTCollection

    names = []
    for i, f in enumerate(TTCollection(str(path), lazy=True).fonts):
        name = f["name"].getDebugName(1)
        if name == SOURCE_FAMILY:
            return i
        names.append(name)
    sys.exit(f"subset-font: {path} has no face '{SOURCE_FAMILY}' (it has {', '.join(names)})")


def build(source, codepoints):
    """The subset font's WOFF2 bytes and its glyph count."""
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff2"
    options.font_number = face_index(source)
    # Horizontal text only, no hinting (browsers draw CJK outlines unhinted or autohinted): no vertical metrics, no
    # hints, and of the layout features only the punctuation spacing ones a browser applies by itself (halt, chws:
    # CSS text-spacing-trim) and kerning; no localized forms (locl would pull in the Japanese and Korean glyphs).
    options.layout_features = ["halt", "chws", "kern"]
    options.hinting = False
    options.desubroutinize = True
    options.drop_tables += ["vhea", "vmtx", "VORG", "BASE"]
    options.notdef_outline = True
    font = subset.load_font(str(source), options, dontLoadGlyphNames=True)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)
    rename(font)
    buf = io.BytesIO()
    subset.save_font(font, buf, options)
    return buf.getvalue(), font["maxp"].numGlyphs


def rename(font):
    """A modified version of the font may not go by the original's names (SIL OFL 1.1, condition 3): ours is
    GuoxiangCJK. The copyright notice, license description and license URL are kept (condition 2)."""
    name = font["name"]
    version = name.getDebugName(5)
    for rec in list(name.names):
        if rec.nameID in (1, 2, 3, 4, 6, 10, 16, 17, 18, 21, 22):
            name.removeNames(nameID=rec.nameID)
    for nid, value in [
        (1, FAMILY),
        (2, "Regular"),
        (3, f"{FAMILY}-Regular;{version}"),
        (4, f"{FAMILY} Regular"),
        (6, f"{FAMILY}-Regular"),
        (10, f"A subset of {SOURCE_FAMILY} Regular ({version}) with the characters of guoxiang's texts, "
             "made by guoxiang's web/tools/subset-font.py; SIL Open Font License 1.1."),
    ]:
        name.setName(value, nid, 3, 1, 0x409)
    cff = font["CFF "].cff
    top = cff[cff.fontNames[0]]
    cff.fontNames[0] = f"{FAMILY}-Regular"
    top.FullName = f"{FAMILY} Regular"
    top.FamilyName = FAMILY


def committed_cmap():
    from fontTools.ttLib import TTFont

    return set(TTFont(str(OUT))["cmap"].getBestCmap())


def fmt(cps):
    s = "".join(chr(c) for c in sorted(cps))
    return s if len(s) <= 60 else s[:60] + f"… ({len(s)} in all)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="check the committed font instead of writing it")
    ap.add_argument("--source", default=SOURCE, help=f"the Noto Sans CJK collection (default {SOURCE})")
    args = ap.parse_args()
    regenerate = f"run 'python3 web/tools/subset-font.py' (needs: {INSTALL}), then 'cd web && npm run build', " \
                 "and commit web/fonts and web/dist"

    used = used_characters()
    if args.check:
        if not OUT.is_file():
            sys.exit(f"subset-font: {OUT.relative_to(ROOT)} is missing: {regenerate}")
        need_tools()
        missing = set(used) - committed_cmap()
        if missing:
            where = "; ".join(f"{chr(c)} {used[c]}" for c in sorted(missing)[:5])
            sys.exit(f"subset-font: {OUT.relative_to(ROOT)} lacks {len(missing)} character{'s' if len(missing) != 1 else ''} the texts use "
                     f"({fmt(missing)}; first places: {where}): {regenerate}")
    versions = need_tools()
    source = Path(args.source)
    if not source.is_file():
        sys.exit(f"subset-font: no source font at {source}; install: {INSTALL}")
    source_sha = hashlib.sha256(source.read_bytes()).hexdigest()
    data, glyphs = build(source, used)
    manifest = {
        "font": f"web/fonts/{FAMILY}.woff2",
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "characters": len(used),
        "glyphs": glyphs,
        "source": f"{source.name} face '{SOURCE_FAMILY}' (Debian fonts-noto-cjk)",
        "source_sha256": source_sha,
        "fonttools": versions["fonttools"],
        "brotli": versions["brotli"],
    }
    if args.check:
        old = OUT.read_bytes()
        if old != data:
            try:
                recorded = json.loads(MANIFEST.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                recorded = {}
            why = [f"{k} was {recorded.get(k)}, is {manifest[k]}" for k in ("source_sha256", "fonttools", "brotli")
                   if recorded.get(k) != manifest[k]]
            extra = committed_cmap() - set(used)
            if extra:
                why.append(f"it has {len(extra)} character{'s' if len(extra) != 1 else ''} the texts no longer use ({fmt(extra)})")
            sys.exit(f"subset-font: {OUT.relative_to(ROOT)} is not what the texts build now "
                     f"({'; '.join(why) or 'same inputs, different bytes'}): {regenerate}")
        print(f"subset-font: {OUT.relative_to(ROOT)} is up to date: {len(used)} characters, {glyphs} glyphs, "
              f"{len(data)} bytes")
        return
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(data)
    MANIFEST.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"subset-font: wrote {OUT.relative_to(ROOT)}: {len(used)} characters, {glyphs} glyphs, {len(data)} bytes")


if __name__ == "__main__":
    main()
