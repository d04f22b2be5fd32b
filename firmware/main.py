# Knockbox firmware entry point: everything lives in knockfw (compiled to /lib as .mpy).
import knockfw.app

knockfw.app.run()
