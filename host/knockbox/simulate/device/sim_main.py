# The simulator's entry point under the MicroPython unix port: the same app.run() as main.py on
# the Pico. A simulated power-off (the Badger releasing its power latch) ends run(); the next
# button press powers the board up again, which boots the app afresh from the flash image.
import os

import knockfw.app
import simboard as board_sim

while True:
    try:
        knockfw.app.run()
    except board_sim.PowerOff:
        board_sim.wait_for_wake(os.getenv("KNOCKBOX_SIM_DIR"))
