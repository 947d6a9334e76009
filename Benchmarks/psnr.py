#!/usr/bin/env python3
"""Per-tile PSNR of an ImageWall sheet against libvips thumbnails of the same sources at the
same sizes (the quality reference). Needs pyvips and numpy.
usage: psnr.py MANIFEST.json   (the sheet is the manifest's first page; tiles with crops are
       compared against a vips crop of the same region)"""
import json, math, sys
import numpy as np
import pyvips

manifest = json.load(open(sys.argv[1]))
background = manifest["layout"]["background"].lstrip("#")
bg = [int(background[i:i + 2], 16) for i in (0, 2, 4)]
sheet = pyvips.Image.new_from_file(manifest["pages"][0]["file"])
sheet = np.ndarray(buffer=sheet.write_to_memory(), dtype=np.uint8, shape=[sheet.height, sheet.width, sheet.bands])[:, :, :3]
scores = []
for tile in manifest["tiles"]:
    if tile["page"] != 0:
        continue
    w, h = tile["width"], tile["height"]
    ref = pyvips.Image.thumbnail(tile["source"], w, height=h, size="force")
    if ref.interpretation != "srgb":
        ref = ref.colourspace("srgb")
    if ref.hasalpha():
        ref = ref.flatten(background=bg)
    ref = ref[0:3].cast("uchar")
    ref = np.ndarray(buffer=ref.write_to_memory(), dtype=np.uint8, shape=[ref.height, ref.width, 3]).astype(np.float64)
    ours = sheet[tile["y"]:tile["y"] + h, tile["x"]:tile["x"] + w].astype(np.float64)
    mse = np.mean((ours - ref) ** 2)
    scores.append((99.0 if mse == 0 else 10 * math.log10(255 ** 2 / mse), tile["source"]))
values = sorted(s for s, _ in scores)
print(f"psnr vs libvips thumbnails: {len(values)} tiles, mean {sum(values) / len(values):.1f} dB, "
      f"median {values[len(values) // 2]:.1f} dB, worst {values[0]:.1f} dB ({min(scores)[1].split('/')[-1]})")
