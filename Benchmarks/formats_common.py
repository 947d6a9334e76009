"""What formats_vs_vips.py and formats_vs_peers.py share: libvips' reading of a file as those
comparisons take it, and the flattening of a reading over white."""
import pyvips


def vips_reading(path):
    image = pyvips.Image.new_from_file(path).autorot()
    if "icc-profile-data" in image.get_fields():
        try:
            image = image.icc_transform("srgb", embedded=True)
        except pyvips.Error:
            pass
    if image.interpretation != "srgb":
        image = image.colourspace("srgb")
    if image.format == "ushort":
        image = (image / 257).cast("uchar")
    elif image.format != "uchar":
        image = image.cast("uchar")
    return image.copy_memory()

def rgba(image):
    if image.bands == 1: image = image.bandjoin([image, image])
    if image.bands == 2: image = image[0].bandjoin([image[0], image[0], image[1]])
    if image.bands == 3: image = image.bandjoin(255)
    return image[0:4]

def over_white(image):
    alpha = image[3].cast("float") / 255
    return image[0:3].cast("float") * alpha + 255 * (1 - alpha)
