# Prepares a simulator's flash image the way the device would have written it: runs the real
# Store on the same file-backed littlefs that simboard mounts (128 blocks), applying
# operations from a JSON file (one per line):
#   ["new", REC]         start a game (REC = game record without hands)
#   ["hand", HAND]       record a hand in the current game
#   ["undo"] ["edit", I, HAND] ["end"]
# Usage: micropython link_flash.py FLASH.img OPS.jsonl   -> prints {"device":..,"last_seq":..}
# The simulator must not be running on the same image. With a folder instead of FLASH.img, the
# journal and meta files are written into it as plain files (journal.txt, meta.json: what
# bench/bench_sync.py copies onto a Pico's /data).
import json
import os
import sys

import simflash as flash
from knockfw.journal import Journal
from knockfw.store import Store
from storekit import end_game

bdev = None
try:
    plain = os.stat(sys.argv[1])[0] & 0x4000  # a directory
except OSError:
    plain = False
if plain:
    st = Store(Journal(sys.argv[1] + "/journal.txt"), sys.argv[1] + "/meta.json").load()
else:
    bdev = flash.FileBlockDevice(sys.argv[1], 128)
    flash.mount(bdev, "/data")
    st = Store(Journal("/data/journal.txt")).load()
with open(sys.argv[2]) as f:
    for line in f:
        op = json.loads(line)
        k = op[0]
        if k == "new":
            st.record({"t": "game", "rec": op[1]})
        elif k == "hand":
            st.record({"t": "hand", "h": op[1]})
        elif k == "undo":
            st.record({"t": "undo"})
        elif k == "edit":
            st.record({"t": "edit", "i": op[1], "h": op[2]})
        elif k == "end":
            end_game(st, st.current())
        else:
            raise ValueError(k)
st.journal.close()
if bdev is not None:
    import vfs

    vfs.umount("/data")
    bdev.close()
print(json.dumps({"device": st.device_id, "epoch": st.epoch, "last_seq": st.last_seq}))
