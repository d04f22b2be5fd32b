"""Draw the wiring pictures of hardware/ with Pillow, from the board files' PINS dicts.

    python hardware/tools/draw_wiring.py [OUT_DIR]     # default: hardware/

wiring_pico_epd29.png   plain Pico build: header pins, display HAT signals, five buttons to GND
badger2040_buttons.png  Badger 2040: where its five buttons are and their GPIOs
"""

import os
import sys

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_pins  # noqa: E402

LEFT = [
    "GP0",
    "GP1",
    "GND",
    "GP2",
    "GP3",
    "GP4",
    "GP5",
    "GND",
    "GP6",
    "GP7",
    "GP8",
    "GP9",
    "GND",
    "GP10",
    "GP11",
    "GP12",
    "GP13",
    "GND",
    "GP14",
    "GP15",
]  # pins 1..20
RIGHT = [
    "GP16",
    "GP17",
    "GND",
    "GP18",
    "GP19",
    "GP20",
    "GP21",
    "GND",
    "GP22",
    "RUN",
    "GP26",
    "GP27",
    "GND",
    "GP28",
    "ADC_VREF",
    "3V3_OUT",
    "3V3_EN",
    "GND",
    "VSYS",
    "VBUS",
]  # 21..40

BLACK = (0, 0, 0)
GREY = (150, 150, 150)
GREEN = (30, 110, 40)
BLUE = (20, 60, 160)
RED = (170, 30, 30)
WHITE = (255, 255, 255)


def font():
    return ImageFont.load_default()


def pico(out):
    pins, _ = gen_pins.read_pins(os.path.join(gen_pins.FW, "board_pico_epd.py"))
    by_gpio = {"GP%d" % g: n for n, g in pins.items()}
    f = font()
    W, H = 1000, 760
    im = Image.new("RGB", (W, H), WHITE)
    d = ImageDraw.Draw(im)
    d.text(
        (20, 12),
        "Knockbox, plain Pico build: Raspberry Pi Pico (H) + Waveshare Pico-ePaper-2.9 + 5 buttons",
        fill=BLACK,
        font=f,
    )
    d.text(
        (20, 30),
        "Generated from firmware/knockfw/board_pico_epd.py PINS by "
        "hardware/tools/draw_wiring.py. Top view, USB at the top.",
        fill=GREY,
        font=f,
    )
    bx, by, bw, bh = 400, 70, 200, 640
    d.rectangle((bx, by, bx + bw, by + bh), outline=GREEN, width=3)
    d.rectangle((bx + 75, by - 12, bx + 125, by + 10), outline=BLACK, width=2)
    d.text((bx + 82, by + 14), "USB", fill=BLACK, font=f)
    d.text((bx + 70, by + bh // 2 - 20), "Raspberry", fill=GREEN, font=f)
    d.text((bx + 70, by + bh // 2 - 5), "Pi Pico", fill=GREEN, font=f)
    step = (bh - 40) // 19
    gnd_left = {}
    for i in range(20):
        y = by + 20 + i * step
        for side, names, x, num in (("L", LEFT, bx, i + 1), ("R", RIGHT, bx + bw, 40 - i)):
            name = names[i] if side == "L" else RIGHT[19 - i]
            d.ellipse((x - 6, y - 6, x + 6, y + 6), outline=BLACK, fill=WHITE, width=2)
            tx = x + 10 if side == "L" else x - 10 - 7 * len(name)
            d.text((tx, y - 6), name, fill=BLACK, font=f)
            lx = x - 30 if side == "L" else x + 14
            d.text((lx, y - 6), "%d" % num, fill=GREY, font=f)
            role = by_gpio.get(name)
            if side == "L" and name == "GND":
                gnd_left[num] = y
            if role in ("a", "b", "c", "up", "down"):
                # a push button from the pin to the GND rail on the far left
                d.line((x - 40, y, 130, y), fill=BLUE, width=2)
                d.line((130, y, 120, y - 8), fill=BLUE, width=2)  # switch lever
                d.line((110, y, 80, y), fill=BLUE, width=2)
                d.text(
                    (150, y - 18),
                    "button %s (%s)"
                    % (role.upper() if len(role) == 1 else role.capitalize(), name),
                    fill=BLUE,
                    font=f,
                )
            elif role:
                d.line((x - 40, y, 240, y), fill=RED, width=2)
                d.text((150, y - 18), "display HAT: %s" % role.upper(), fill=RED, font=f)
            if name == "VSYS":
                d.line((x + 38, y, x + 120, y), fill=BLACK, width=2)
                d.text((x + 125, y - 6), "battery + (via Schottky diode)", fill=BLACK, font=f)
    # GND rail for the buttons, tied to GND pins 3 and 8
    d.line((80, by + 20, 80, by + 20 + 9 * step), fill=BLUE, width=2)
    for num, y in gnd_left.items():
        if num in (3, 8):
            d.line((80, y, bx - 40, y), fill=BLUE, width=2)
            d.text((90, y - 16), "GND (pin %d)" % num, fill=BLUE, font=f)
    d.text(
        (20, H - 40),
        "Buttons: momentary, normally open, between the GPIO and GND "
        "(internal pull-ups; pressed reads 0).",
        fill=BLACK,
        font=f,
    )
    d.text(
        (20, H - 24),
        "Display: the Pico-ePaper-2.9 plugs onto the Pico header; it "
        "uses SPI1 (GP8-GP13) and 3V3/GND.",
        fill=BLACK,
        font=f,
    )
    im.save(os.path.join(out, "wiring_pico_epd29.png"))


def badger(out):
    pins, _ = gen_pins.read_pins(os.path.join(gen_pins.FW, "board_badger2040.py"))
    f = font()
    W, H = 760, 420
    im = Image.new("RGB", (W, H), WHITE)
    d = ImageDraw.Draw(im)
    d.text(
        (20, 12),
        "Pimoroni Badger 2040: buttons (front view), from board_badger2040.py PINS",
        fill=BLACK,
        font=f,
    )
    bx, by, bw, bh = 60, 50, 600, 300
    d.rounded_rectangle((bx, by, bx + bw, by + bh), radius=20, outline=GREEN, width=3)
    d.rectangle((bx + 40, by + 30, bx + 40 + 444, by + 30 + 192), outline=BLACK, width=2)
    d.text((bx + 150, by + 120), '2.9" e-ink 296 x 128 (UC8151)', fill=BLACK, font=f)
    for i, n in enumerate(("a", "b", "c")):
        cx = bx + 110 + i * 150
        cy = by + 260
        d.ellipse((cx - 16, cy - 16, cx + 16, cy + 16), outline=BLUE, width=3)
        d.text((cx - 4, cy - 6), n.upper(), fill=BLUE, font=f)
        d.text((cx - 30, cy + 22), "GPIO %d" % pins[n], fill=BLUE, font=f)
    for i, n in enumerate(("up", "down")):
        cx = bx + 540
        cy = by + 80 + i * 90
        d.ellipse((cx - 16, cy - 16, cx + 16, cy + 16), outline=BLUE, width=3)
        d.text((cx - 8, cy - 6), {"up": "Up", "down": "Dn"}[n], fill=BLUE, font=f)
        d.text((cx - 24, cy + 22), "GPIO %d" % pins[n], fill=BLUE, font=f)
    d.text(
        (20, H - 52),
        "Buttons are active high (pull-downs) and also power the board up "
        "through the latch (3V3_EN, GPIO %d)." % pins["en_3v3"],
        fill=BLACK,
        font=f,
    )
    d.text(
        (20, H - 36),
        "A, B, C = seats 0, 1, 2. Battery: JST-PH 2-pin on the back "
        "(2.7-6 V). LED: GPIO %d." % pins["led"],
        fill=BLACK,
        font=f,
    )
    im.save(os.path.join(out, "badger2040_buttons.png"))


def main(argv):
    out = argv[0] if argv else os.path.join(gen_pins.ROOT, "hardware")
    os.makedirs(out, exist_ok=True)
    pico(out)
    badger(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
