# Knockbox firmware entry point: everything lives in knockfw (compiled to /knockfw as .mpy).
import knockfw.app

knockfw.app.run()
