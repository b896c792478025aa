"""botpsy: an on-device personal assistant driven by a small tool-calling model.

The package is split by concern (see DESIGN.md): ``types`` holds the shared data
model, ``tools`` the tool registry, ``formats`` the chat formats, ``backends`` the
model runtimes, ``agent``/``assistant``/``safety`` the assistant, and ``evals``,
``bench``, ``train``, ``server`` the rest of the system.
"""

__version__ = "0.1.0"
