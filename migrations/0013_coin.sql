-- /coin: each user's heads and tails per server. Portable SQL, as in 0001.
CREATE TABLE coin_tallies (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    heads BIGINT NOT NULL,
    tails BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
