"""What the device runs, made on the laptop: the manifest, .mpy files, the engines."""
