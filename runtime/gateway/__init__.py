"""The gateway: any client protocol in front of any upstream protocol (interlingua serve)."""
