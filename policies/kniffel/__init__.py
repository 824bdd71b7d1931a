"""The kniffel bots: registry, dispatcher, decisions."""
