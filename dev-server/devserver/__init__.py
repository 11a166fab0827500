"""sclm dev-server: a StoryCLM-compatible development backend (Python 3 standard library only).

One process serves auth (`/connect/token`), the content API (`/v1/...`), signed blob downloads,
the StoryIoT publish endpoint, the OSAM endpoints and the `/_control` fault switches.
See dev-server/README.md.
"""

__version__ = "1.0.0"
