<<<<<<< HEAD
VERSION = "1.5.0.dev1"
=======
VERSION = "1.5.0.dev2"
>>>>>>> feature/timeout
