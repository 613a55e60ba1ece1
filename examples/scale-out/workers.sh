# Two processes serving port 4010, sharing their state through the Valkey/Redis server at 127.0.0.1:6379.
npx mockrouter --store redis://127.0.0.1:6379 --workers 2
