//! A fake Discord (REST and gateway) on loopback for the bot's end-to-end tests.
