"""The Flask app: status page for phones, the banker's admin, the virtual device in sim mode."""
