"""codecairn's built-in tools. Each module is a plugin, registered through ``codecairn_tools``
exactly as a third-party plugin would register its own."""
