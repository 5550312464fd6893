VERSION = "1.5.0.dev2"
