"""Examples of research bots playing the project's games (``piquet arena`` loads them as ``module:callable``)."""
