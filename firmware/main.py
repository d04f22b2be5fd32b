try:
    import knockfw.app

    knockfw.app.run()
except BaseException as e:
    from knockfw import fault

    fault.top(e)
    raise
