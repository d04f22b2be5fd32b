# Knockbox firmware entry point: everything lives in knockfw (compiled to /knockfw as .mpy). An
# exception out of the app is a fault (knockfw.fault: recorded, an error screen, then switched off
# on battery or restarted); Ctrl-C (mpremote, `knockbox deploy`) reaches the REPL as always.
try:
    import knockfw.app

    knockfw.app.run()
except BaseException as e:
    import gc

    gc.collect()
    from knockfw import fault

    fault.top(e)
    raise
