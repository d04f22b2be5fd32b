"""`knockbox sync` prints the device's last battery reading (the hello's `battery`,
docs/PROTOCOL.md): the battery and the supply, whether it was read on USB or on battery, the
supply under which the device switches itself off, and BATTERY LOW when the reading is under it;
nothing when the device has no reading (`null`: the Pico build, an ADC that reads nothing), sends
none (an older firmware) or sends one that makes no sense. The device side (the Badger's reading,
the switch-off): tests/test_battery.py."""

import pytest

from kit.ptydevice import HELLO, FakeDevice, good_device, journal, run


@pytest.mark.parametrize(
    "battery, line",
    [
        (
            {"vbat_mv": 3710, "supply_mv": 3300, "usb": False, "low_mv": 2800},
            "battery 3.71 V, supply 3.30 V (read on battery); the device switches off below a "
            "2.80 V supply on battery\n",
        ),
        (
            {"vbat_mv": 2650, "supply_mv": 2780, "usb": False, "low_mv": 2800},
            "battery 2.65 V, supply 2.78 V (read on battery); the device switches off below a "
            "2.80 V supply on battery: BATTERY LOW, change the batteries\n",
        ),
        (
            {"vbat_mv": 2650, "supply_mv": 3300, "usb": True, "low_mv": 2800},
            "battery 2.65 V, supply 3.30 V (read on USB power); the device switches off below a "
            "2.80 V supply on battery\n",
        ),
        (None, None),
        ("missing", None),
        ({"vbat_mv": "3.7 V"}, None),
    ],
)
def test_sync_prints_the_last_battery_reading(db, battery, line):
    hello = dict(HELLO)
    if battery != "missing":
        hello["battery"] = battery
    evs, _g = journal(3)
    with FakeDevice(good_device(evs, hello=hello)) as d:
        p = run("sync", "--port", d.path, "--db", db)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "Traceback" not in p.stderr
    if line:
        assert line in p.stdout, p.stdout
    else:
        assert "battery" not in p.stdout, p.stdout
