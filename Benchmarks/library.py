#!/usr/bin/env python3
"""Builds the "library" benchmark tree from the photos corpus: COUNT distinct camera-like 12 MP
JPEGs (4000x3000, baseline, quality 92, 4:2:0, every 4th stored sideways with EXIF orientation 6)
in FOLDERS albums nested by year ("2023/04 Lisbon/..."). Each picture is one of the 100 photos
flipped, turned and given sensor noise of its own seed, so no two files have the same content.
Needs pyvips. usage: library.py PHOTOS_DIR DEST_DIR [COUNT] [FOLDERS]"""
import os, sys, pyvips
from multiprocessing import Pool

src, dest = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
folders = int(sys.argv[4]) if len(sys.argv) > 4 else 30
photos = sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".jpg"))
places = ["Rome", "Lisbon", "Oslo", "Kyoto", "Lima", "Cairo", "Quebec", "Hanoi", "Porto", "Tunis"]
names = [f"{2022 + i // 10}/{i % 10 + 1:02d} {places[i % len(places)]}" for i in range(folders)]


def make(i):
    folder = os.path.join(dest, names[i % folders])
    path = os.path.join(folder, f"IMG_{i:05d}.jpg")
    if os.path.exists(path):
        return
    os.makedirs(folder, exist_ok=True)
    im = pyvips.Image.new_from_file(photos[i % len(photos)]).autorot()
    variant = i // len(photos)
    if variant & 1:
        im = im.fliphor()
    if variant & 2:
        im = im.flipver()
    noise = pyvips.Image.gaussnoise(im.width, im.height, sigma=3, mean=0, seed=1000 + i)
    im = (im + noise).cast("uchar").copy()
    if i % 4 == 3:
        im = im.rot270()
        im.set_type(pyvips.GValue.gint_type, "orientation", 6)
    im.jpegsave(path + ".part", Q=92, subsample_mode="on", interlace=False)
    os.rename(path + ".part", path)


if __name__ == "__main__":
    with Pool(os.cpu_count()) as pool:
        pool.map(make, range(count), chunksize=8)
    print(f"{count} pictures in {folders} folders under {dest}")
