// Loaded before every test file (bunfig.toml): keeps test runs off the developer's own data.
process.env.ARTMARKET_DATA ??= "/nonexistent-artmarket-data-for-tests";
