/**
 * artmarket's API types, generated from its /openapi.json by clients/typescript/generate.ts.
 * Do not edit: run `npx bun clients/typescript/generate.ts` after the API changes.
 */
export interface paths {
    "/healthcheck": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: 200 while the service is reachable
         * @description Cost: 0 DU.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Artist list
         * @description Filters combine with AND. Without a key (or on a plan with the public schema) rows are ArtistPublicSchema and filters on the hidden values are refused (401 without a key, 403 with one). Sorts end with the id; NULLs sort last in both directions.
         *
         *     Cost: 2 + 1 per record DU.
         */
        get: operations["listArtists"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Statistics of the artists matching the list's filters
         * @description min, max, median and 95th percentile of each numeric field (NULLs left out), and the nationality facet.
         *
         *     Cost: 10 DU.
         */
        get: operations["getArtistStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/followed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Artists the caller follows
         * @description Most recently followed first; the same shape as the artist list.
         *
         *     Cost: 2 + 1 per record DU.
         */
        get: operations["listFollowedArtists"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/{artist_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One artist
         * @description ArtistSchema for plans with the full schema, ArtistPublicSchema for the others. artist_index_chart: see /chart.
         *
         *     Cost: 1 DU.
         */
        get: operations["getArtist"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/{artist_id}/chart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Artist price index chart
         * @description One series (id service_index): the price of the artist's typical work in USD, with the central 80 % band (value_low, value_high). resolution=monthly (default, from 1986-01), yearly (December, or the last month of the current year), daily (the last two years, linearly interpolated between the monthly points).
         *
         *     Cost: 10 DU.
         */
        get: operations["getArtistChart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/{artist_id}/related": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Related artists
         * @description The artists nearest by cosine similarity of artist_index_vector, most similar first.
         *
         *     Cost: 10 + 1 per record DU.
         */
        get: operations["listRelatedArtists"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/{artist_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Artist events
         * @description Visible events only, by date ascending.
         *
         *     Cost: 10 DU.
         */
        get: operations["listArtistEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/{artist_id}/sales-volume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sales volume by year and outcome
         * @description One item for all lots (category_id null, first), then one per category id. Every item has the same `dates` (one per year, contiguous) and four count arrays aligned with them: lots sold above, within and below the estimate, and lots not sold.
         *
         *     Cost: 10 DU.
         */
        get: operations["getArtistSalesVolume"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/{artist_id}/sharpe-ratio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sharpe ratios of the artist index
         * @description Horizons 1, 2, 3, 5, 7 and 10 years; a ratio is null when the sales history is insufficient.
         *
         *     Cost: 10 DU.
         */
        get: operations["getArtistSharpeRatios"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/{artist_id}/career-path-count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Career path: artworks per medium and creation year
         * @description Creation years bounded by birth and death where known; every medium has the same contiguous years.
         *
         *     Cost: 10 DU.
         */
        get: operations["getArtistCareerPathCount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/{artist_id}/career-path-lae": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Career path weighted by estimate
         * @description As career-path-count, each artwork weighted by its current estimated value in USD.
         *
         *     Cost: 10 DU.
         */
        get: operations["getArtistCareerPathEstimate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/{artist_id}/returns-vs-period": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Returns vs. holding period
         * @description One point per repeat-sale pair: compound annual return (percent per year) and months held. Pairs held under 12 months are excluded.
         *
         *     Cost: 10 DU.
         */
        get: operations["getArtistReturnsVsPeriod"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/{artist_id}/compound-annual-returns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Median compound annual return by year
         * @description Median car (percent per year) of the repeat-sale pairs sold each calendar year; years without repeat sales are omitted.
         *
         *     Cost: 10 DU.
         */
        get: operations["getArtistCompoundAnnualReturns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List artworks
         * @description Filters combine with AND. Estimates and their filters are in USD. Without a key (unmetered) and for sandbox keys the items are ArtworkPublicSchema. limit up to 1000.
         *
         *     Cost: 2 + 1.5 per record DU.
         */
        get: operations["listArtworks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks/recommended": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recommended artworks
         * @description Personalised: works by the artists of the caller's followed artworks, works of followed artists with a lot in the last 12 months or upcoming, and works of a followed artwork's category whose estimate is within a factor 1.5 of its estimate. Followed artworks are left out; empty when the caller follows nothing. Ordered by how many of these reasons hold (artist of a followed work first), then by the latest sale or upcoming date, then id.
         *
         *     Cost: 2 + 1.5 per record DU.
         */
        get: operations["listRecommendedArtworks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks/followed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Followed artworks
         * @description The caller's followed artworks, most recently followed first; the artwork list's filters apply.
         *
         *     Cost: 2 + 1.5 per record DU.
         */
        get: operations["listFollowedArtworks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Share a list of artworks
         * @description Creates a public token for up to 500 artworks (each must exist, else 422), shown in the given order at GET /v1/artworks/shared/{token} for 30 days.
         *
         *     Cost: 0 DU.
         */
        post: operations["shareArtworks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks/shared/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A shared list of artworks
         * @description Public, no key needed, 0 DU. The artworks in the order they were shared, public schema. Unknown or expired token: 404.
         *
         *     Cost: 0 DU.
         */
        get: operations["getSharedArtworks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks/{artwork_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One artwork
         * @description ArtworkSchema for entitled callers; ArtworkPublicSchema for sandbox keys. With as_of=YYYY-MM-DD, the estimate values (current_estimated_price, its _min and _max, price_change_12mo and _24mo, and their _preferred values at that day's rate) are those the service served that day; a day before the first snapshot it kept is 422.
         *
         *     Cost: 1 DU.
         */
        get: operations["getArtwork"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks/{artwork_id}/chart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Artwork price chart
         * @description Hammer prices of the work's sold lots (at the sale day's rate with preferred_currency) and a forward monthly 80 % band around the current estimate for 12 months: σ₀ = ln(max/min)/(2·1.2816) from the stored band, widened by the artist index's monthly step variance 0.0004 per month (σ_h² = σ₀² + 0.0004·h). The band's values use the as-of date's rate.
         *
         *     Cost: 10 DU.
         */
        get: operations["getArtworkChart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks/{artwork_id}/editions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The edition ladder of an artwork
         * @description Every tracked copy of the artwork's edition (same edition_group_id), by edition number, each with its lots oldest first; a unique work: just itself. A record is one copy.
         *
         *     Cost: 2 + 1.5 per record DU.
         */
        get: operations["listArtworkEditions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks/{artwork_id}/cagr": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compound annual growth of an artwork's estimate
         * @description A fraction per year over the last 10 years. 404 when the artwork is unknown or has no price prediction.
         *
         *     Cost: 10 DU.
         */
        get: operations["getArtworkCagr"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks/{artwork_id}/similar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Similar artworks
         * @description The artworks whose images look most like this artwork's (cosine similarity of the image embeddings, docs/vectors.md), best first, the artwork itself left out. An artwork without an image has no neighbours: empty results. limit 1 to 100, default 20. A record is one result.
         *
         *     Cost: 10 + 1.5 per record DU.
         */
        get: operations["listSimilarArtworks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks/search-by-image": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search artworks by image
         * @description Exactly one anchor: an uploaded file part `image` (JPEG, PNG, WebP, GIF or TIFF, at most 20 MiB and 64 megapixels), `image_url` (an http(s) address, fetched with a 10 s timeout, at most 3 redirects and 20 MiB), or `collectable_id` (one of the caller's collectables, by its image); none or several: 422.
         *
         *     image_url, collectable_id, min_score, exclude_artwork_id__in and limit may be form fields or query parameters (not both); the pool filters (the artwork list's artist, category, materials, price, measurements, size, creation year, last sale, without_editions…) and preferred_currency are query parameters. The pool filters narrow the candidates and never change the order: results are by score (cosine similarity), highest first.
         *
         *     limit 1 to 200, default 50. A non-image upload is 422 (image_type), an oversized one 413, an unusable image or address 422, another user's or an unknown collectable 404.
         *
         *     Cost: 10 + 1.5 per record DU.
         */
        post: operations["searchArtworksByImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Lot list
         * @description Filters combine with AND. Without a key, or on a plan with the public schema, lots come without price and is_followed. No total: has_more says whether a next page exists.
         *
         *     Cost: 2 + 1 per record DU.
         */
        get: operations["listLots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lots/followed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Followed lots
         * @description The lot list's grammar, limited to the lots the caller follows.
         *
         *     Cost: 2 + 1 per record DU.
         */
        get: operations["listFollowedLots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lots/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Share a list of lots
         * @description Creates a public token for up to 500 lots (each must exist, else 422), shown in the given order at GET /v1/lots/shared/{token} for 30 days.
         *
         *     Cost: 0 DU.
         */
        post: operations["shareLots"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lots/shared/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A shared list of lots
         * @description Public, 0 DU. The lots in the public schema (no price), images blurred. An unknown or expired token is 404.
         *
         *     Cost: 0 DU.
         */
        get: operations["getSharedLots"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lots/{lot_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One lot
         * @description Cost: 1 DU.
         */
        get: operations["getLot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sale list
         * @description Filters combine with AND. Without a key, or on a plan with the public schema, sales come without the money aggregates (totals, estimate envelope, *_preferred) and is_followed.
         *
         *     Cost: 2 + 1 per record DU.
         */
        get: operations["listSales"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales/followed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Followed sales
         * @description The sale list's grammar, limited to the sales the caller follows.
         *
         *     Cost: 2 + 1 per record DU.
         */
        get: operations["listFollowedSales"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales/{sale_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One sale
         * @description Cost: 1 DU.
         */
        get: operations["getSale"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artists/{artist_id}/follow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Follow an artist
         * @description Idempotent: following twice keeps one follow. 404 when the market has no such record.
         *
         *     Cost: 0 DU.
         */
        post: operations["followArtist"];
        /**
         * Unfollow an artist
         * @description Idempotent: 204 whether or not it was followed.
         *
         *     Cost: 0 DU.
         */
        delete: operations["unfollowArtist"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/artworks/{artwork_id}/follow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Follow an artwork
         * @description Idempotent: following twice keeps one follow. 404 when the market has no such record.
         *
         *     Cost: 0 DU.
         */
        post: operations["followArtwork"];
        /**
         * Unfollow an artwork
         * @description Idempotent: 204 whether or not it was followed.
         *
         *     Cost: 0 DU.
         */
        delete: operations["unfollowArtwork"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lots/{lot_id}/follow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Follow a lot
         * @description Idempotent: following twice keeps one follow. 404 when the market has no such record.
         *
         *     Cost: 0 DU.
         */
        post: operations["followLot"];
        /**
         * Unfollow a lot
         * @description Idempotent: 204 whether or not it was followed.
         *
         *     Cost: 0 DU.
         */
        delete: operations["unfollowLot"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales/{sale_id}/follow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Follow a sale
         * @description Idempotent: following twice keeps one follow. 404 when the market has no such record.
         *
         *     Cost: 0 DU.
         */
        post: operations["followSale"];
        /**
         * Unfollow a sale
         * @description Idempotent: 204 whether or not it was followed.
         *
         *     Cost: 0 DU.
         */
        delete: operations["unfollowSale"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/market/index-chart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Global art index chart
         * @description The monthly global art index and, for each `finance` value, a benchmark series (synthetic, as their labels say). By default every series is rebased to 100 at base_time, the first month they all have; rebase=false gives the stored levels.
         *
         *     Cost: 10 DU.
         */
        get: operations["getMarketIndexChart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auction-houses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Auction houses
         * @description Cost: 1 DU.
         */
        get: operations["listAuctionHouses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auction-locations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every known sale location
         * @description Cost: 1 DU.
         */
        get: operations["listAuctionLocations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Category taxonomy
         * @description Cost: 1 DU.
         */
        get: operations["listCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/currencies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Supported currencies (the preferred_currency values)
         * @description Cost: 1 DU.
         */
        get: operations["listCurrencies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/materials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Materials vocabulary
         * @description Cost: 1 DU.
         */
        get: operations["listMaterials"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/substrates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Substrates vocabulary
         * @description Cost: 1 DU.
         */
        get: operations["listSubstrates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/surfaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Surfaces vocabulary
         * @description Cost: 1 DU.
         */
        get: operations["listSurfaces"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/damages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Damages vocabulary
         * @description Cost: 1 DU.
         */
        get: operations["listDamages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Plans with their allowances, rate limits and features
         * @description Cost: 1 DU.
         */
        get: operations["listPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Data Unit consumption: period, daily and monthly windows, optional breakdown
         * @description du_consumed and breakdown cover from..to (default: the current period up to today); the remaining figures and projected_eop always describe the current windows. group_by=week labels each week by its Monday; group_by=key breaks the pool down by the user's keys.
         *
         *     Cost: 0 DU.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in user and the session's CSRF token
         * @description For a console that reloads: the session's user and its CSRF token again. 404 for a call made with an API key (no session).
         *
         *     Cost: 0 DU.
         */
        get: operations["getSession"];
        put?: never;
        /**
         * Sign in to the console with email and password
         * @description Opens a session: the `artmarket_session` cookie (HttpOnly, SameSite=Strict, Secure over https) and a `csrf_token` that every POST, PATCH, PUT and DELETE made with the session carries in X-CSRF-Token. A wrong email or password is 401; repeated failures for one account or from one address are 429 with Retry-After. The session ends after 2 hours without a call or 12 hours after sign-in. The session opens the account area only (keys, session, admin): market and collectables data need an API key.
         *
         *     Cost: 0 DU.
         */
        post: operations["signIn"];
        /**
         * Sign out (this session, or everywhere)
         * @description Ends the session and removes its cookie; `everywhere=true` ends every session of the user, on every node. With an API key, `everywhere=true` ends the key's user's sessions; without it, 404.
         *
         *     Cost: 0 DU.
         */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How users sign in to this service's console
         * @description Email and password always; single sign-on when the service runs with --oidc-issuer (then a browser goes to `oidc_url`, and comes back signed in to /console).
         *
         *     Cost: 0 DU.
         */
        get: operations["getSignInMethods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a password with a one-time set-password link's token
         * @description The token of a link made by `artmarket users create` or an admin (72 hours, once). The password has 12 to 1,024 characters. Every session of the user ends; sign in with the new password.
         *
         *     Cost: 0 DU.
         */
        post: operations["setPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's API keys
         * @description Every key of the signed-in user (or of the calling key's user), revoked and expired ones included; never a key's secret.
         *
         *     Cost: 0 DU.
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Make an API key
         * @description A new key of the caller's user, answered once (only a hash is stored). `scope` read makes GET and HEAD calls only (403 on the others); `expires_at` ends it (401 saying it expired). Every key of a user draws on the user's one Data Unit pool.
         *
         *     Cost: 0 DU.
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke one of the caller's API keys
         * @description Refused from the next request on, on every node. Another user's key, or one already revoked, is 404.
         *
         *     Cost: 0 DU.
         */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{key_id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace one of the caller's API keys
         * @description A new key with the old one's name, scope and expiry, answered once; the old key keeps working until `old_key_expires_at` (24 hours, or its own earlier expiry) so that clients can move to the new one, then stops. Another user's key, or one revoked or expired, is 404.
         *
         *     Cost: 0 DU.
         */
        post: operations["rotateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every user (admins only)
         * @description Cost: 0 DU.
         */
        get: operations["adminListUsers"];
        put?: never;
        /**
         * Make a user who signs in (admins only)
         * @description Answers a one-time set-password link (72 hours) to hand to the user. An email in use is 409; an unknown plan 422.
         *
         *     Cost: 0 DU.
         */
        post: operations["adminCreateUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One user (admins only)
         * @description Cost: 0 DU.
         */
        get: operations["adminGetUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a user's plan, role or access, or reset the password (admins only)
         * @description `disabled: true` refuses every key and session of the user at once, on every node; `reset_password: true` clears the password, ends the user's sessions and answers a new set-password link. An admin cannot demote or disable themselves (409).
         *
         *     Cost: 0 DU.
         */
        patch: operations["adminUpdateUser"];
        trace?: never;
    };
    "/v1/admin/users/{user_id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user's API keys (admins only)
         * @description Cost: 0 DU.
         */
        get: operations["adminListUserKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/users/{user_id}/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke any user's API key (admins only)
         * @description Refused from the next request on, on every node. A key that is not the user's, or already revoked, is 404.
         *
         *     Cost: 0 DU.
         */
        delete: operations["adminRevokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every user's consumption in the current period, and the allowance notices (admins only)
         * @description Cost: 0 DU.
         */
        get: operations["adminUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit log, newest first (admins only)
         * @description Sign-ins and their failures, sign-outs, keys made, rotated and revoked, users made and changed (plan, role, access, password): who (user and key), how (session, key or the CLI), when, from which address. Kept 400 days. `user_id` keeps the entries a user made or that concern them.
         *
         *     Cost: 0 DU.
         */
        get: operations["adminAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notifications/unread": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many notifications came after the newest one the caller has seen
         * @description Free (0 DU): for a badge polled in the background. `after` is the id of the newest event the caller has seen (the first of the feed when it was read); without it, or when that event is no longer kept, every notification counts. At most 999.
         *
         *     Cost: 0 DU.
         */
        get: operations["countUnreadNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's notifications: market events about what they follow, newest first
         * @description Each new snapshot's events (a lot consigned, sold, passed or withdrawn; a sale's results published; a work's estimate moved by 5 % or more; an artist's index moved by 3 % or more in a month) for the artists, artworks, lots and sales the caller follows. Kept 90 days. `data` holds the event's figures in the caller's plan's schema (a sandbox plan: the status or month only) and `object`, what it is about in that schema. Filter by `type` (or `type__in`) and `since`; `next_cursor` pages on.
         *
         *     Cost: 1 DU.
         */
        get: operations["listNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's webhook destinations
         * @description Cost: 0 DU.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook destination
         * @description Events of the listed types for what the user follows are POSTed to `url`, signed per the Standard Webhooks specification with `secret` (shown only here and on rotation). The URL must resolve to public addresses (or to a range the operator allows with --webhook-allow); else 422.
         *
         *     Cost: 0 DU.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook destination
         * @description Another user's destination is 404.
         *
         *     Cost: 0 DU.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Remove a webhook destination
         * @description Its deliveries not yet made are dropped.
         *
         *     Cost: 0 DU.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a destination's URL, event types or status
         * @description `status: enabled` turns a disabled destination on again and clears its failures.
         *
         *     Cost: 0 DU.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new signing secret
         * @description Deliveries from now on are signed with the new secret, shown only in this answer.
         *
         *     Cost: 0 DU.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook.test event to this destination
         * @description Queued at once like any event (signed, retried); its delivery shows in the destination's deliveries. A disabled destination is sent nothing.
         *
         *     Cost: 0 DU.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A destination's deliveries, newest first
         * @description Each event sent to it: pending (with its next attempt), succeeded, or failed after every retry (with the receiver's last status and the error).
         *
         *     Cost: 0 DU.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description A delivery that succeeded or failed is queued again now, with the same event id (webhook-id) and body; one still pending is 404.
         *
         *     Cost: 0 DU.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/collectables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's collectables
         * @description Filters: artist_id, category_id (exact or __in), artist_name__ilike, title__ilike, value__gte / value__lte (the value in effect, USD), creation_year (exact, __gte, __lte), edition_unique_type, created_at__gte / __lte. sort: CREATED_AT, VALUE, ARTIST_NAME, TITLE or CREATION_YEAR with _ASC or _DESC (default CREATED_AT_DESC; records without a value or year last). limit default 20, max 100. 1 DU + 1 per item.
         *
         *     Cost: 1 + 1 per record DU.
         */
        get: operations["listCollectables"];
        put?: never;
        /**
         * Create a collectable
         * @description multipart/form-data: artist_id, category_id, edition_unique_type (unique or edition), optional suggested_artwork_id (a market artwork: seeds title, creation year, measurements, materials, substrate, edition data and image), optionally any field of CollectableUpdateInput by its flat name (overrides the seeds; id lists repeated or comma-separated), optional image file (JPEG, PNG, WebP, GIF or TIFF; replaces the seeded image). Returns the created CollectableSchema: without suggested_artwork_id, an image that closely matches a market artwork gives suggested_matches (a suggestion to link with PATCH, never linked by itself). 1 DU, whatever the image. Unknown reference ids are 422.
         *
         *     Cost: 1 DU.
         */
        post: operations["createCollectable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/collectables/{collectable_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One collectable
         * @description The full CollectableSchema with its acquisition, appraisals, provenance and private sales. 1 DU + 1 (one record). With as_of=YYYY-MM-DD, machine_estimated_price (and current_estimated_price when it is the machine's) is valued on the market's estimates of that day; the user's own entries are as they are now. A day before the first snapshot the service kept is 422.
         *
         *     Cost: 1 + 1 per record DU.
         */
        get: operations["getCollectable"];
        put?: never;
        post?: never;
        /**
         * Delete a collectable
         * @description Removes the record with its acquisition, appraisals, provenance, private sales, comp set and image, in one transaction. 200 {id, deleted: true}; deleting it again is 404.
         *
         *     Cost: 1 DU.
         */
        delete: operations["deleteCollectable"];
        options?: never;
        head?: never;
        /**
         * Update a collectable
         * @description CollectableUpdateInput: only the fields sent change; null clears a nullable field; unknown fields, wrong types and unknown reference ids are 422 and change nothing. Returns the updated record.
         *
         *     Cost: 1 DU.
         */
        patch: operations["updateCollectable"];
        trace?: never;
    };
    "/v1/collectables/{collectable_id}/image": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upload or replace a collectable's image
         * @description multipart/form-data with one file part `image` (JPEG, PNG, WebP, GIF or TIFF, sniffed from the bytes). Returns the updated record with fresh signed image URLs; the image is embedded for comps and search by image, and, while the record has no suggested_artwork_id, matched against the market's images (suggested_matches). 1 DU.
         *
         *     Cost: 1 DU.
         */
        put: operations["uploadCollectableImage"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/collectables/{collectable_id}/acquired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A collectable's acquisition
         * @description AcquiredSchema; every field null (use_instead_of_estimates false) until set. 1 DU + 1 (one record).
         *
         *     Cost: 1 + 1 per record DU.
         */
        get: operations["getCollectableAcquisition"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a collectable's acquisition
         * @description AcquiredUpdateInput: only the fields sent change; null clears. A price without a currency is in USD; price_usd is at the reference rate of the date (of the market's as-of date without one). use_instead_of_estimates makes the acquisition price the value in effect unless a manual price is selected.
         *
         *     Cost: 1 DU.
         */
        patch: operations["updateCollectableAcquisition"];
        trace?: never;
    };
    "/v1/collectables/{collectable_id}/appraisals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a collectable's appraisals
         * @description A JSON array, oldest date first. 1 DU + 1 per entry.
         *
         *     Cost: 1 + 1 per record DU.
         */
        get: operations["listCollectableAppraisals"];
        put?: never;
        /**
         * Add an appraisal
         * @description Returns the entry created, with value_usd at the reference rate of its date. currency defaults to USD; an unknown currency is 422.
         *
         *     Cost: 1 DU.
         */
        post: operations["addCollectableAppraisal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/collectables/{collectable_id}/appraisals/{appraisal_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove an appraisal
         * @description 200 {id, deleted: true}; removing it again is 404 (it no longer exists).
         *
         *     Cost: 1 DU.
         */
        delete: operations["removeCollectableAppraisal"];
        options?: never;
        head?: never;
        /**
         * Update an appraisal
         * @description Only the fields sent change; null clears a nullable field; unknown fields are 422.
         *
         *     Cost: 1 DU.
         */
        patch: operations["updateCollectableAppraisal"];
        trace?: never;
    };
    "/v1/collectables/{collectable_id}/provenance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a collectable's provenance entries
         * @description A JSON array, in the order added. 1 DU + 1 per entry.
         *
         *     Cost: 1 + 1 per record DU.
         */
        get: operations["listCollectableProvenance"];
        put?: never;
        /**
         * Add a provenance entry
         * @description Returns the entry created. year_from must not be after year_to.
         *
         *     Cost: 1 DU.
         */
        post: operations["addCollectableProvenance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/collectables/{collectable_id}/provenance/{provenance_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a provenance entry
         * @description 200 {id, deleted: true}; removing it again is 404 (it no longer exists).
         *
         *     Cost: 1 DU.
         */
        delete: operations["removeCollectableProvenance"];
        options?: never;
        head?: never;
        /**
         * Update a provenance entry
         * @description Only the fields sent change; null clears a nullable field; unknown fields are 422.
         *
         *     Cost: 1 DU.
         */
        patch: operations["updateCollectableProvenance"];
        trace?: never;
    };
    "/v1/collectables/{collectable_id}/sales": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a collectable's private sales
         * @description A JSON array, oldest date first. 1 DU + 1 per entry.
         *
         *     Cost: 1 + 1 per record DU.
         */
        get: operations["listCollectableSales"];
        put?: never;
        /**
         * Add a private sale
         * @description Returns the entry created, with value_usd at the reference rate of its date. currency defaults to USD; an unknown currency is 422.
         *
         *     Cost: 1 DU.
         */
        post: operations["addCollectableSale"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/collectables/{collectable_id}/sales/{sale_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a private sale
         * @description 200 {id, deleted: true}; removing it again is 404 (it no longer exists).
         *
         *     Cost: 1 DU.
         */
        delete: operations["removeCollectableSale"];
        options?: never;
        head?: never;
        /**
         * Update a private sale
         * @description Only the fields sent change; null clears a nullable field; unknown fields are 422.
         *
         *     Cost: 1 DU.
         */
        patch: operations["updateCollectableSale"];
        trace?: never;
    };
    "/v1/collectables/{collectable_id}/comps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A collectable's comp set
         * @description Always 200: {comps: [], updated_at: null} when no set is saved. 1 DU + 1 per comp.
         *
         *     Cost: 1 + 1 per record DU.
         */
        get: operations["getCollectableComps"];
        /**
         * Replace a collectable's comp set
         * @description The whole set (at most 50 comps, each artwork once, artworks and artists the market has; weight default 1.0) replaces the stored one; an empty array clears it. Returns the saved set with names, similarity and verified (false for an artwork not by the comp's artist_id). Any invalid comp is 422 and keeps the stored set.
         *
         *     Cost: 1 DU.
         */
        put: operations["replaceCollectableComps"];
        post?: never;
        /**
         * Clear a collectable's comp set
         * @description Same effect and answer as PUT with an empty array: 200 {comps: [], updated_at: null}, whether or not a set was saved.
         *
         *     Cost: 1 DU.
         */
        delete: operations["clearCollectableComps"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ErrorResponse: {
            detail: string;
        };
        ValidationIssue: {
            loc: (string | number)[];
            msg: string;
            type: string;
            input: unknown;
            ctx: Record<string, never>;
        };
        HTTPValidationError: {
            detail: components["schemas"]["ValidationIssue"][];
        };
        HealthcheckResponse: {
            /** @constant */
            status: "ok";
        };
        ArtistIndexPoint: {
            /**
             * Format: date
             * @description YYYY-MM-DD (the first of the month for monthly points)
             */
            time: string;
            /** @description the artist index: price of a typical work, USD */
            value: number;
            /** @description true for a point dated before the artist's first priced lot (the first sold lot with a hammer price; every point when the artist has none): its value is carried back by the index model from later sales, not measured on a sale of the artist's; false from that lot's day on */
            extrapolated: boolean;
        };
        ArtistSchema: {
            id: number;
            /** @description canonical slug */
            uid: string;
            name: string;
            nationality: string;
            /** @description birth year; null when unknown */
            birth: number | null;
            /** @description death year; null for living artists */
            death: number | null;
            bio: string;
            long_bio: string;
            /** @description lifetime auction sales (sold lots, price with premium), USD */
            total_sales: number;
            /** @description sum of the current estimates of all the artist's works, USD */
            market_cap: number;
            /** @description highest price with premium of a sold lot, USD; null without sold lots */
            max_price: number | null;
            /** @description lowest price with premium of a sold lot, USD; null without sold lots */
            min_price: number | null;
            /** @description change of the artist index over 12 months, percent */
            price_momentum_percentage_12mo: number | null;
            /** @description change of the artist index over 5 years, percent */
            price_momentum_percentage_5y: number | null;
            artworks_count: number;
            /** @description lots of the last 12 months, upcoming ones included */
            recent_lots_count: number;
            /** @description lots sold in the trailing 12 months */
            total_sales_lots_1yr: number;
            /** @description median price with premium of the lots sold in the trailing 12 months, USD */
            total_sales_price_median_1yr: number | null;
            /** @description monthly artist index (price of a typical work, USD) from 1986-01; present only with include_chart=true */
            artist_index_chart?: components["schemas"]["ArtistIndexPoint"][];
            /** @description 64-dimensional, L2-normalised embedding of the artist's market behaviour, period and style */
            artist_index_vector: number[] | null;
            /** @description whether the caller follows this artist */
            is_followed: boolean;
            /** @description signed, time-limited URL of the artist's photo, 240 pixels wide (blurred for callers without a key); null without a photo */
            photo_thumbnail_url: string | null;
        };
        ArtistListResponse: {
            artists: components["schemas"]["ArtistSchema"][];
            /** @description rows matching the filters */
            total: number;
            limit: number;
            offset: number;
            /** @description pass as `cursor` (with the same filters and sort) for the next page; null on the last page */
            next_cursor: string | null;
        };
        /** @description The reduced artist record for callers without a key or on a plan with the public schema */
        ArtistPublicSchema: {
            id: number;
            /** @description canonical slug */
            uid: string;
            name: string;
            nationality: string;
            /** @description birth year; null when unknown */
            birth: number | null;
            /** @description death year; null for living artists */
            death: number | null;
            /** @description change of the artist index over 5 years, percent */
            price_momentum_percentage_5y: number | null;
            /** @description signed, time-limited URL of the artist's photo, 240 pixels wide (blurred for callers without a key); null without a photo */
            photo_thumbnail_url: string | null;
        };
        ArtistPublicListResponse: {
            artists: components["schemas"]["ArtistPublicSchema"][];
            /** @description rows matching the filters */
            total: number;
            limit: number;
            offset: number;
            /** @description pass as `cursor` (with the same filters and sort) for the next page; null on the last page */
            next_cursor: string | null;
        };
        ArtistFieldStats: {
            /** @description smallest value; null when no matching artist has one */
            min: number | null;
            /** @description largest value */
            max: number | null;
            /** @description median (linear interpolation between order statistics) */
            p50: number | null;
            /** @description 95th percentile (linear interpolation between order statistics) */
            p95: number | null;
        };
        ArtistStatsResponse: {
            /** @description artists matching the filters (the sum of the nationality counts) */
            total: number;
            market_cap: components["schemas"]["ArtistFieldStats"];
            total_sales: components["schemas"]["ArtistFieldStats"];
            max_price: components["schemas"]["ArtistFieldStats"];
            min_price: components["schemas"]["ArtistFieldStats"];
            birth: components["schemas"]["ArtistFieldStats"];
            artworks_count: components["schemas"]["ArtistFieldStats"];
            recent_lots_count: components["schemas"]["ArtistFieldStats"];
            total_sales_lots_1yr: components["schemas"]["ArtistFieldStats"];
            total_sales_price_median_1yr: components["schemas"]["ArtistFieldStats"];
            price_momentum_percentage_12mo: components["schemas"]["ArtistFieldStats"];
            price_momentum_percentage_5y: components["schemas"]["ArtistFieldStats"];
            /** @description by count, descending, then value */
            nationalities: {
                value: string;
                count: number;
            }[];
        };
        /** @description The spec's ChartResponse for the artist index */
        ArtistChartResponse: {
            resolution: "daily" | "monthly" | "yearly";
            /** @description unit of the values: USD (US dollars) */
            unit: string;
            /** @description currency of the values (value, value_low, value_high): always USD, the index being built from the lots' prices in US dollars (each at its sale day's reference rate) */
            currency: string;
            series: {
                id: string;
                label: string;
                data: {
                    /** Format: date */
                    time: string;
                    /** @description the artist index: price of a typical work, USD */
                    value: number;
                    /** @description low end of the central 80 % band */
                    value_low?: number;
                    /** @description high end of the central 80 % band */
                    value_high?: number;
                    /** @description true for a point dated before the artist's first priced lot (the first sold lot with a hammer price; every point when the artist has none): its value is carried back by the index model from later sales, not measured on a sale of the artist's; false from that lot's day on */
                    extrapolated: boolean;
                }[];
            }[];
        };
        RelatedArtistsResponse: {
            artist_id: number;
            artists: {
                id: number;
                /** @description canonical slug */
                uid: string;
                name: string;
                nationality: string;
                /** @description birth year; null when unknown */
                birth: number | null;
                /** @description death year; null for living artists */
                death: number | null;
                bio: string;
                long_bio: string;
                /** @description lifetime auction sales (sold lots, price with premium), USD */
                total_sales: number;
                /** @description sum of the current estimates of all the artist's works, USD */
                market_cap: number;
                /** @description highest price with premium of a sold lot, USD; null without sold lots */
                max_price: number | null;
                /** @description lowest price with premium of a sold lot, USD; null without sold lots */
                min_price: number | null;
                /** @description change of the artist index over 12 months, percent */
                price_momentum_percentage_12mo: number | null;
                /** @description change of the artist index over 5 years, percent */
                price_momentum_percentage_5y: number | null;
                artworks_count: number;
                /** @description lots of the last 12 months, upcoming ones included */
                recent_lots_count: number;
                /** @description lots sold in the trailing 12 months */
                total_sales_lots_1yr: number;
                /** @description median price with premium of the lots sold in the trailing 12 months, USD */
                total_sales_price_median_1yr: number | null;
                /** @description monthly artist index (price of a typical work, USD) from 1986-01; present only with include_chart=true */
                artist_index_chart?: components["schemas"]["ArtistIndexPoint"][];
                /** @description 64-dimensional, L2-normalised embedding of the artist's market behaviour, period and style */
                artist_index_vector: number[] | null;
                /** @description whether the caller follows this artist */
                is_followed: boolean;
                /** @description signed, time-limited URL of the artist's photo, 240 pixels wide (blurred for callers without a key); null without a photo */
                photo_thumbnail_url: string | null;
                /** @description cosine similarity of artist_index_vector, -1 to 1 */
                similarity: number;
            }[];
        };
        RelatedArtistsPublicResponse: {
            artist_id: number;
            artists: {
                id: number;
                /** @description canonical slug */
                uid: string;
                name: string;
                nationality: string;
                /** @description birth year; null when unknown */
                birth: number | null;
                /** @description death year; null for living artists */
                death: number | null;
                /** @description change of the artist index over 5 years, percent */
                price_momentum_percentage_5y: number | null;
                /** @description signed, time-limited URL of the artist's photo, 240 pixels wide (blurred for callers without a key); null without a photo */
                photo_thumbnail_url: string | null;
                /** @description cosine similarity of artist_index_vector, -1 to 1 */
                similarity: number;
            }[];
        };
        ArtistEventsResponse: {
            artist_id: number;
            events: {
                id: number;
                /** Format: date */
                date: string;
                type: "Life Events" | "Major Exhibitions" | "Major Publications" | "Major Sales";
                title: string;
                description: string;
            }[];
        };
        SalesVolumeResponse: {
            artist_id: number;
            items: {
                /** @description null: the overall total, listed first */
                category_id: number | null;
                /** @description one per year (YYYY-01-01), contiguous */
                dates: string[];
                lots_above_estimate: number[];
                lots_within_estimate: number[];
                lots_below_estimate: number[];
                lots_not_sold: number[];
            }[];
        };
        SharpeRatioResponse: {
            artist_id: number;
            /** @description horizons 1, 2, 3, 5, 7 and 10 years, in that order */
            horizons: {
                horizon_years: number;
                /** @description annualised Sharpe ratio of the artist index; null when the history is insufficient */
                sharpe_ratio: number | null;
            }[];
        };
        CareerPathCountResponse: {
            artist_id: number;
            /**
             * @description unit of the values: artworks (a count)
             * @constant
             */
            unit: "artworks";
            /** @description one per medium, largest total first; every medium has the same contiguous years */
            items: {
                medium: string;
                points: {
                    year: number;
                    /** @description number of artworks created that year */
                    value: number;
                }[];
            }[];
        };
        CareerPathEstimateResponse: {
            artist_id: number;
            /**
             * @description unit of the values: USD (US dollars)
             * @constant
             */
            unit: "USD";
            /** @description one per medium, largest total first; every medium has the same contiguous years */
            items: {
                medium: string;
                points: {
                    year: number;
                    /** @description sum of the current estimates of the works created that year, USD */
                    value: number;
                }[];
            }[];
        };
        ReturnsVsPeriodResponse: {
            artist_id: number;
            /** @description one per repeat-sale pair held 12 months or more */
            items: {
                /** @description compound annual return of the pair, percent per year */
                car: number;
                period_months: number;
                /** Format: date */
                buy_date: string;
                /** Format: date */
                sell_date: string;
                artwork_id: number;
            }[];
        };
        CompoundAnnualReturnsResponse: {
            artist_id: number;
            /** @description ascending by year; years without repeat sales are omitted */
            items: {
                year: number;
                /** @description median compound annual return of the pairs sold that year, percent per year */
                car: number;
            }[];
        };
        ImageSchema: {
            id: number;
            urls: {
                /**
                 * Format: uri
                 * @description signed URL of the 240-pixel-wide rendition
                 */
                w240: string;
                /**
                 * Format: uri
                 * @description signed URL of the 480-pixel-wide rendition
                 */
                w480: string;
                /**
                 * Format: uri
                 * @description signed URL of the 768-pixel-wide rendition
                 */
                w768: string;
                /**
                 * Format: uri
                 * @description signed URL of the 1200-pixel-wide rendition
                 */
                w1200: string;
                /**
                 * Format: uri
                 * @description signed URL of the 1920-pixel-wide rendition
                 */
                w1920: string;
            };
            /** @description retired; always null */
            large_url: null;
            /** @description retired; always null */
            medium_url: null;
            /** @description retired; always null */
            thumbnail_url: null;
        };
        ArtworkDescriptionSchema: {
            /** @description title of the work */
            name: string;
            /** @description the medium as catalogued, e.g. "oil on canvas" */
            materials: string;
            /** @description year the work was made; null when unknown */
            creation_year: number | null;
            /** @description the work's image; blurred previews for callers without a key; null without image */
            image: components["schemas"]["ImageSchema"] | null;
            /** @description the artist of the work */
            artist: {
                id: number;
                name: string;
            };
            /** @description see GET /v1/categories */
            category_id: number;
            /** @description measurements in centimetres and the normalised size bucket */
            measurements: {
                /** @description height in centimetres */
                height_cm: number | null;
                /** @description width in centimetres */
                width_cm: number | null;
                /** @description depth in centimetres; null for flat works */
                depth_cm: number | null;
                /** @description normalised size bucket: largest of height and width < 40 cm small, < 100 cm medium, else big; other for three-dimensional works or unknown sizes */
                size: "small" | "medium" | "big" | "other";
            };
            /** @description edition data; GET /v1/artworks/{artwork_id}/editions lists every copy */
            edition: {
                /** @description works of one edition share this id; null for a unique work */
                edition_group_id: number | null;
                /** @description number of this copy within its edition */
                edition_number: number | null;
                /** @description number of copies of the edition */
                edition_size: number | null;
                /** @description unique: a one-off work; edition: one copy of an edition */
                edition_unique_type: "unique" | "edition";
            };
        };
        PriceSchema: {
            /** @description the lot's native currency: the currency of the sale it was offered in (ISO 4217 code), in which hammer, the estimates and premium are given */
            currency: string;
            /** @description hammer price in the sale currency; null unless sold */
            hammer: number | null;
            /** @description low estimate, sale currency */
            hammer_estimate_min: number | null;
            /** @description high estimate, sale currency */
            hammer_estimate_max: number | null;
            /** @description price with buyer's premium, sale currency; null unless sold */
            premium: number | null;
            /** @description hammer in US dollars (USD) at the sale day's reference rate */
            hammer_usd: number | null;
            /** @description low estimate in US dollars (USD) at the sale day's reference rate */
            hammer_estimate_min_usd: number | null;
            /** @description high estimate in US dollars (USD) at the sale day's reference rate */
            hammer_estimate_max_usd: number | null;
            /** @description price with buyer's premium in US dollars (USD) at the sale day's reference rate */
            premium_usd: number | null;
            /** @description the preferred_currency asked for (ISO 4217 code): the currency of the *_preferred amounts, converted from USD at the sale day's reference rate */
            preferred_currency?: string;
            /** @description hammer in the preferred currency */
            hammer_preferred?: number | null;
            /** @description low estimate in the preferred currency */
            hammer_estimate_min_preferred?: number | null;
            /** @description high estimate in the preferred currency */
            hammer_estimate_max_preferred?: number | null;
            /** @description price with premium in the preferred currency */
            premium_preferred?: number | null;
        };
        ArtworkSchema: {
            id: number;
            /** @description stable string id */
            uid: string;
            /** @description URL slug: the title and the id */
            slug: string;
            /** @description outcome of the most recent lot */
            last_lot_status: "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";
            /** @description date of the most recent upcoming lot */
            date_last_upcoming: string | null;
            /** @description date of the most recent sale */
            date_last_sold: string | null;
            /** @description the native currency of the work's most recent lot: the currency of the sale it was offered in (the same as price.currency); USD for a work never offered. Not the currency of the estimate fields: see current_estimated_price_currency */
            currency: string;
            /** @description the service's estimate of the hammer price today, USD (the median of the prediction); null without a prediction */
            current_estimated_price: number | null;
            /** @description low end of the central 80 % prediction interval, USD */
            current_estimated_price_min: number | null;
            /** @description high end of the central 80 % prediction interval, USD */
            current_estimated_price_max: number | null;
            /**
             * @description the currency of current_estimated_price, its _min and _max and price_change_12mo and _24mo: always USD (US dollars), whatever the native currency of the work's lots
             * @constant
             */
            current_estimated_price_currency: "USD";
            /** @description change of the artist's price index over 12 months, a fraction clipped to -1..1 */
            price_momentum_12mo: number | null;
            /** @description estimate now minus the estimate 12 months ago, USD */
            price_change_12mo: number | null;
            /** @description change of the artist's price index over 24 months, a fraction clipped to -1..1 */
            price_momentum_24mo: number | null;
            /** @description estimate now minus the estimate 24 months ago, USD */
            price_change_24mo: number | null;
            /** @description the preferred_currency asked for (ISO 4217 code): the currency of the *_preferred fields, converted from USD at the market's as-of date */
            preferred_currency?: string;
            /** @description current_estimated_price in the preferred currency, at the reference rate of the market's as-of date; only with preferred_currency */
            current_estimated_price_preferred?: number | null;
            /** @description current_estimated_price_min in the preferred currency, at the reference rate of the market's as-of date; only with preferred_currency */
            current_estimated_price_min_preferred?: number | null;
            /** @description current_estimated_price_max in the preferred currency, at the reference rate of the market's as-of date; only with preferred_currency */
            current_estimated_price_max_preferred?: number | null;
            /** @description price_change_12mo in the preferred currency, at the reference rate of the market's as-of date; only with preferred_currency */
            price_change_12mo_preferred?: number | null;
            /** @description price_change_24mo in the preferred currency, at the reference rate of the market's as-of date; only with preferred_currency */
            price_change_24mo_preferred?: number | null;
            description: components["schemas"]["ArtworkDescriptionSchema"];
            /** @description price of the most recent lot (with *_preferred at that sale day's rate when preferred_currency is given); null for a work never offered */
            price: components["schemas"]["PriceSchema"] | null;
            /** @description whether the caller follows this artwork (false without a key) */
            is_followed: boolean;
        };
        ArtworksResponse: {
            items: components["schemas"]["ArtworkSchema"][];
            /** @description rows matching the filters */
            total_count: number;
            limit: number;
            offset: number;
            /** @description pass as `cursor` (with the same filters and sort) for the next page; null on the last page (GET /v1/artworks and /followed; /recommended pages by offset only) */
            next_cursor?: string | null;
        };
        /** @description ArtworkSchema without the financial fields (estimates, momentum, price changes, price) and is_followed, as the other public schemas */
        ArtworkPublicSchema: {
            id: number;
            /** @description stable string id */
            uid: string;
            /** @description URL slug: the title and the id */
            slug: string;
            /** @description outcome of the most recent lot */
            last_lot_status: "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";
            /** @description date of the most recent upcoming lot */
            date_last_upcoming: string | null;
            /** @description date of the most recent sale */
            date_last_sold: string | null;
            /** @description the native currency of the work's most recent lot: the currency of the sale it was offered in (the same as price.currency); USD for a work never offered. Not the currency of the estimate fields: see current_estimated_price_currency */
            currency: string;
            description: components["schemas"]["ArtworkDescriptionSchema"];
        };
        ArtworksPublicResponse: {
            items: components["schemas"]["ArtworkPublicSchema"][];
            /** @description rows matching the filters */
            total_count: number;
            limit: number;
            offset: number;
            /** @description pass as `cursor` (with the same filters and sort) for the next page; null on the last page (GET /v1/artworks and /followed; /recommended pages by offset only) */
            next_cursor?: string | null;
        };
        ArtworkShareCreated: {
            token: string;
            /**
             * Format: uri
             * @description the public address of the shared list
             */
            url: string;
            /**
             * Format: date-time
             * @description 30 days after creation
             */
            expires_at: string;
        };
        ArtworkShareInput: {
            /** @description artwork ids, in the order to show them; each must exist; repeats are kept once */
            ids: number[];
            title?: string;
        };
        SharedArtworksResponse: {
            title: string | null;
            /** Format: date-time */
            expires_at: string;
            items: components["schemas"]["ArtworkPublicSchema"][];
            total_count: number;
            limit: number;
            offset: number;
        };
        ArtworkChartPoint: {
            /** Format: date */
            time: string;
            value: number;
            /** @description low end of the central 80 % band (estimate series) */
            value_low?: number;
            /** @description high end of the central 80 % band (estimate series) */
            value_high?: number;
            /** @description upcoming_lot series: the lot's chance of selling (0..1); its value is the expected hammer if sold */
            sale_probability?: number;
            /** @description upcoming_lot series: the lot (GET /v1/lots/{lot_id}) */
            lot_id?: number;
        };
        /** @description The spec's ChartResponse for an artwork: hammer prices of its sold lots, a forward 12-month confidence band around the current estimate, the estimate as served since the first snapshot kept, and the upcoming lot's expected hammer with its band and chance of selling */
        ArtworkChartResponse: {
            /**
             * @description the estimate band has one point a month; hammer prices are at their sale dates
             * @constant
             */
            resolution: "monthly";
            /** @description currency code of the values */
            unit: string;
            /** @description currency code of the values: USD, or preferred_currency */
            currency: string;
            series: {
                /** @description hammer_prices, estimate, estimate_history (the estimate as the service served it: a point, with its band, on each day a new value took effect, from the first snapshot kept), or upcoming_lot (present when the work has an upcoming lot with a forecast) */
                id: string;
                label: string;
                data: components["schemas"]["ArtworkChartPoint"][];
            }[];
        };
        EditionLotSchema: {
            id: number;
            lot_num: string;
            status: "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";
            sale_id: number;
            sale_name: string | null;
            /** Format: date-time */
            sale_datetime: string;
            auction_house_id: number;
            auction_house_name: string | null;
            price: components["schemas"]["PriceSchema"];
        };
        EditionSchema: {
            artwork: components["schemas"]["ArtworkSchema"];
            /** @description the copy's lots, oldest first */
            lots: components["schemas"]["EditionLotSchema"][];
        };
        EditionsResponse: {
            /** @description the artwork asked for */
            artwork_id: number;
            /** @description the edition group; null for a unique work */
            edition_group_id: number | null;
            /** @description copies in the edition */
            edition_size: number | null;
            edition_unique_type: "unique" | "edition";
            /** @description every tracked copy of the edition (the work itself for a unique work), by edition number */
            editions: components["schemas"]["EditionSchema"][];
        };
        EditionLotPublicSchema: {
            id: number;
            lot_num: string;
            status: "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";
            sale_id: number;
            sale_name: string | null;
            /** Format: date-time */
            sale_datetime: string;
            auction_house_id: number;
            auction_house_name: string | null;
        };
        EditionPublicSchema: {
            artwork: components["schemas"]["ArtworkPublicSchema"];
            /** @description the copy's lots, oldest first */
            lots: components["schemas"]["EditionLotPublicSchema"][];
        };
        EditionsPublicResponse: {
            /** @description the artwork asked for */
            artwork_id: number;
            /** @description the edition group; null for a unique work */
            edition_group_id: number | null;
            /** @description copies in the edition */
            edition_size: number | null;
            edition_unique_type: "unique" | "edition";
            /** @description every tracked copy of the edition (the work itself for a unique work), by edition number */
            editions: components["schemas"]["EditionPublicSchema"][];
        };
        ArtworkCagrResponse: {
            artwork_id: number;
            /** @description compound annual growth of the estimate over the last 10 years, a fraction per year (0.12 = 12 %) */
            cagr: number;
        };
        SearchResultSchema: {
            /** @description cosine similarity of the image embeddings, -1 to 1 (1: the same picture), 6 decimals */
            score: number;
            artwork: components["schemas"]["ArtworkSchema"];
        };
        SimilarArtworksResponse: {
            /** @description the artwork the neighbours are of */
            artwork_id: number;
            /** @description ordered by score, highest first (ties by artwork id) */
            results: components["schemas"]["SearchResultSchema"][];
        };
        SearchResultPublicSchema: {
            /** @description cosine similarity of the image embeddings, -1 to 1 (1: the same picture), 6 decimals */
            score: number;
            artwork: components["schemas"]["ArtworkPublicSchema"];
        };
        SimilarArtworksPublicResponse: {
            artwork_id: number;
            /** @description ordered by score, highest first (ties by artwork id) */
            results: components["schemas"]["SearchResultPublicSchema"][];
        };
        SearchByImageResponse: {
            /** @description ordered by score, highest first (ties by artwork id) */
            results: components["schemas"]["SearchResultSchema"][];
        };
        SearchByImagePublicResponse: {
            /** @description ordered by score, highest first (ties by artwork id) */
            results: components["schemas"]["SearchResultPublicSchema"][];
        };
        LotSchema: {
            id: number;
            /** @description the lot number as printed; may contain letters */
            lot_num: string;
            /** @description outcome of the lot */
            status: "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";
            auction_house_id: number;
            auction_house_name: string;
            sale_id: number;
            /**
             * Format: date-time
             * @description start of the lot's sale, ISO 8601 UTC (addition to the spec)
             */
            sale_datetime: string;
            /** @description a top lot: high estimate of at least $250k or of outstanding quality */
            is_top: boolean;
            /** @description offered with a reserve */
            reserve_mark: boolean;
            /** @description backed by a third-party guarantee */
            third_party_mark: boolean;
            /** @description the artwork offered */
            artwork: {
                id: number;
                /** @description the artwork's title */
                name: string;
                creation_year: number | null;
            };
            /** @description the artist of the artwork (addition to the spec) */
            artist: {
                id: number;
                uid: string;
                name: string;
            };
            /** @description the sale the lot is offered at */
            sale: {
                id: number;
                name: string;
                /** @description a name from /v1/auction-locations */
                location: string;
                /**
                 * Format: date-time
                 * @description when the sale starts (addition to the spec)
                 */
                start_datetime: string;
            };
            /** @description catalogue notes (signature, provenance, literature); may be empty (addition to the spec) */
            notes: string;
            /** @description the artwork's image; blurred previews for callers without a key; null without image */
            image: components["schemas"]["ImageSchema"] | null;
            price: components["schemas"]["PriceSchema"];
            /** @description whether the caller follows this lot */
            is_followed: boolean;
            /** @description upcoming lots: the chance that the lot sells rather than being bought in or withdrawn (0..1), from what is known before the sale (docs/derivation.md); null on other statuses (addition to the spec) */
            sale_probability: number | null;
            /** @description upcoming lots: the median hammer if the lot sells (as likely above it as below), in US dollars (USD); null on other statuses (addition to the spec) */
            expected_hammer_usd: number | null;
            /** @description the low end of expected_hammer_usd's 80 % band, USD; null on other statuses */
            expected_hammer_usd_low: number | null;
            /** @description the high end of expected_hammer_usd's 80 % band, USD; null on other statuses */
            expected_hammer_usd_high: number | null;
        };
        LotsResponse: {
            lots: components["schemas"]["LotSchema"][];
            /** @description whether a next page exists (no total: counting the lots table is not cheap) */
            has_more: boolean;
            limit: number;
            offset: number;
            /** @description pass as `cursor` (with the same filters and sort) for the next page; null on the last page */
            next_cursor: string | null;
        };
        LotPublicSchema: {
            id: number;
            /** @description the lot number as printed; may contain letters */
            lot_num: string;
            /** @description outcome of the lot */
            status: "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";
            auction_house_id: number;
            auction_house_name: string;
            sale_id: number;
            /**
             * Format: date-time
             * @description start of the lot's sale, ISO 8601 UTC (addition to the spec)
             */
            sale_datetime: string;
            /** @description a top lot: high estimate of at least $250k or of outstanding quality */
            is_top: boolean;
            /** @description offered with a reserve */
            reserve_mark: boolean;
            /** @description backed by a third-party guarantee */
            third_party_mark: boolean;
            /** @description the artwork offered */
            artwork: {
                id: number;
                /** @description the artwork's title */
                name: string;
                creation_year: number | null;
            };
            /** @description the artist of the artwork (addition to the spec) */
            artist: {
                id: number;
                uid: string;
                name: string;
            };
            /** @description the sale the lot is offered at */
            sale: {
                id: number;
                name: string;
                /** @description a name from /v1/auction-locations */
                location: string;
                /**
                 * Format: date-time
                 * @description when the sale starts (addition to the spec)
                 */
                start_datetime: string;
            };
            /** @description catalogue notes (signature, provenance, literature); may be empty (addition to the spec) */
            notes: string;
            /** @description the artwork's image; blurred previews for callers without a key; null without image */
            image: components["schemas"]["ImageSchema"] | null;
        };
        LotsPublicResponse: {
            lots: components["schemas"]["LotPublicSchema"][];
            /** @description whether a next page exists (no total: counting the lots table is not cheap) */
            has_more: boolean;
            limit: number;
            offset: number;
            /** @description pass as `cursor` (with the same filters and sort) for the next page; null on the last page */
            next_cursor: string | null;
        };
        LotShareCreated: {
            token: string;
            /**
             * Format: uri
             * @description the public address of the shared list
             */
            url: string;
            /**
             * Format: date-time
             * @description 30 days after creation
             */
            expires_at: string;
        };
        LotShareInput: {
            /** @description lot ids, in the order to show them; each must exist; repeats are kept once */
            ids: number[];
            title?: string;
        };
        SharedLotsResponse: {
            title: string | null;
            /** Format: date-time */
            expires_at: string;
            lots: components["schemas"]["LotPublicSchema"][];
            /** @description lots in the shared list */
            total: number;
            has_more: boolean;
            limit: number;
            offset: number;
        };
        SaleSchema: {
            id: number;
            name: string;
            /** @description closed, upcoming, live (under way) or session_off (between the sessions of a sale of several days) */
            status: "closed" | "upcoming" | "live" | "session_off";
            is_online: boolean;
            /** @description whether a live bid feed exists */
            is_bids_streaming: boolean;
            /** @description a name from /v1/auction-locations */
            location: string;
            location_id: number;
            /** Format: date-time */
            start_datetime: string;
            /** Format: date-time */
            end_datetime: string;
            auction_house: {
                id: number;
                name: string;
            };
            /** @description the sale's native currency (ISO 4217 code): the currency of its lots' prices and of its totals and estimates */
            currency: string;
            /** @description lots offered in the sale */
            lots_count: number;
            /** @description lots bought in (passed); null until the sale is closed */
            lots_count_not_sold: number | null;
            /** @description lots sold with a hammer above the high estimate; null until the sale is closed */
            lots_count_sold_above_estimations: number | null;
            /** @description lots sold with a hammer between the estimates; null until the sale is closed */
            lots_count_sold_within_estimations: number | null;
            /** @description lots sold with a hammer below the low estimate; null until the sale is closed */
            lots_count_sold_below_estimations: number | null;
            /** @description sum of hammer prices of the lots sold, sale currency; null until closed */
            hammer_total: number | null;
            /** @description sum of the buyer's premiums (price with premium − hammer) of the lots sold, sale currency; null until closed */
            premium_sold_total: number | null;
            /** @description sum of the prices with premium of the lots sold, sale currency; null until closed */
            cumulative_total: number | null;
            /** @description hammer_total in USD at each lot's sale-day rate; 0 instead of null */
            hammer_total_usd_zeroied: number;
            /** @description premium_sold_total in USD; 0 instead of null */
            premium_sold_total_usd_zeroied: number;
            /** @description cumulative_total in USD; 0 instead of null */
            cumulative_total_usd_zeroied: number;
            /** @description sum of the low estimates of the lots not withdrawn, sale currency */
            hammer_low_estimate: number;
            /** @description sum of the high estimates of the lots not withdrawn, sale currency */
            hammer_high_estimate: number;
            /** @description the preferred_currency asked for (ISO 4217 code): the currency of the *_preferred totals */
            preferred_currency?: string;
            /** @description the USD hammer total at the sale day's rate of the preferred currency */
            hammer_total_preferred?: number | null;
            /** @description the USD premium total in the preferred currency */
            premium_sold_total_preferred?: number | null;
            /** @description the USD cumulative total in the preferred currency */
            cumulative_total_preferred?: number | null;
            /** @description whether the caller follows this sale */
            is_followed: boolean;
        };
        SalesResponse: {
            sales: components["schemas"]["SaleSchema"][];
            total: number;
            limit: number;
            offset: number;
            /** @description pass as `cursor` (with the same filters and sort) for the next page; null on the last page */
            next_cursor: string | null;
        };
        SalePublicSchema: {
            id: number;
            name: string;
            /** @description closed, upcoming, live (under way) or session_off (between the sessions of a sale of several days) */
            status: "closed" | "upcoming" | "live" | "session_off";
            is_online: boolean;
            /** @description whether a live bid feed exists */
            is_bids_streaming: boolean;
            /** @description a name from /v1/auction-locations */
            location: string;
            location_id: number;
            /** Format: date-time */
            start_datetime: string;
            /** Format: date-time */
            end_datetime: string;
            auction_house: {
                id: number;
                name: string;
            };
            /** @description the sale's native currency (ISO 4217 code): the currency of its lots' prices and of its totals and estimates */
            currency: string;
            /** @description lots offered in the sale */
            lots_count: number;
            /** @description lots bought in (passed); null until the sale is closed */
            lots_count_not_sold: number | null;
            /** @description lots sold with a hammer above the high estimate; null until the sale is closed */
            lots_count_sold_above_estimations: number | null;
            /** @description lots sold with a hammer between the estimates; null until the sale is closed */
            lots_count_sold_within_estimations: number | null;
            /** @description lots sold with a hammer below the low estimate; null until the sale is closed */
            lots_count_sold_below_estimations: number | null;
        };
        SalesPublicResponse: {
            sales: components["schemas"]["SalePublicSchema"][];
            total: number;
            limit: number;
            offset: number;
            /** @description pass as `cursor` (with the same filters and sort) for the next page; null on the last page */
            next_cursor: string | null;
        };
        GlobalArtIndexChartResponse: {
            /** @description the global art index, monthly */
            art_data: {
                /**
                 * Format: date
                 * @description the first day of the month
                 */
                time: string;
                value: number;
            }[];
            /** @description one series per benchmark asked for, in the order asked */
            finance_data: {
                /** @description the benchmark asked for */
                id: "SNP500" | "GOLD" | "DOW_JONES" | "MSCI_WORLD_REAL_ESTATE" | "BITCOIN_USD";
                /** @description display name; the series of this service are synthetic and say so */
                label: string;
                data: {
                    /**
                     * Format: date
                     * @description the first day of the month
                     */
                    time: string;
                    value: number;
                }[];
            }[];
            /** @description whether every series is rebased to 100 at base_time (addition to the spec) */
            rebased: boolean;
            /** @description the first month every returned series has a value, where rebased series equal 100 (addition to the spec) */
            base_time: string | null;
        };
        AuctionHouseSchema: {
            id: number;
            name: string;
            slug: string;
            /** @description 1 is the highest priority; the seven top houses come first */
            priority_order: number;
            /** @description whether the house runs live sales */
            is_live: boolean;
            /** @description the day (UTC) of the latest result the market holds for the house: the latest sale day of a lot sold, passed or withdrawn in a sale held or under way; null when it holds none */
            results_as_of: string | null;
        };
        CategorySchema: {
            id: number;
            name: string;
        };
        CurrencySchema: {
            /** @description ISO 4217 code */
            code: string;
            name: string;
            symbol: string;
        };
        /** @description A material, substrate, surface or damage term */
        VocabularyItemSchema: {
            id: number;
            name: string;
            label: string;
        };
        PlanSchema: {
            slug: string;
            display_name: string;
            /** @description Data Units per period */
            du_limit: number;
            period_days: number;
            rps_limit: number;
            rpm_limit: number;
            throttle_multiplier: number;
            /** @description the plan's price for one period (period_days), in US dollars (USD) */
            price_usd: number;
            /** @description entitlements and the daily, monthly and API-pool windows */
            features: {
                [key: string]: unknown;
            };
        };
        UsageBreakdownItem: {
            /** @description the day, week (its Monday), month, endpoint, or key (its kid) */
            label: string;
            du_consumed: number;
            requests: number;
            /** @description group_by=key: the key's id (DELETE /v1/keys/{key_id}) */
            key_id?: number;
            /** @description group_by=key: the key's name */
            key_name?: string;
        };
        UsageResponse: {
            plan: string;
            /** Format: date */
            from: string;
            /** Format: date */
            to: string;
            /** Format: date */
            period_start: string;
            /** Format: date */
            period_end: string;
            du_limit: number;
            du_consumed: number;
            du_remaining: number;
            daily_du_limit: number;
            daily_du_consumed: number;
            daily_du_remaining: number;
            monthly_du_limit: number;
            monthly_du_consumed: number;
            monthly_du_remaining: number;
            /** @description projected consumption at the end of the period at the average daily rate so far */
            projected_eop: number;
            api_du_limit?: number;
            api_du_consumed?: number;
            api_du_remaining?: number;
            api_daily_du_limit?: number;
            api_daily_du_consumed?: number;
            api_daily_du_remaining?: number;
            api_monthly_du_limit?: number;
            api_monthly_du_consumed?: number;
            api_monthly_du_remaining?: number;
            api_projected_eop?: number;
            breakdown?: components["schemas"]["UsageBreakdownItem"][];
        };
        AccountUser: {
            id: number;
            /** @description null for a user made by `artmarket keys create` (keys only, no sign-in) */
            email: string | null;
            name: string;
            role: "member" | "admin";
            plan: string;
            /** Format: date-time */
            created_at: string;
            disabled: boolean;
            disabled_at: string | null;
            /** @description whether the user can sign in with a password (set through a set-password link) */
            has_password: boolean;
        };
        SessionResponse: {
            user: components["schemas"]["AccountUser"];
            /** @description send it in X-CSRF-Token with every POST, PATCH, PUT and DELETE made with this session */
            csrf_token: string;
            /**
             * Format: date-time
             * @description the session's absolute end; it also ends after 2 hours without a call
             */
            expires_at: string;
        };
        SignInBody: {
            email: string;
            password: string;
        };
        SignInMethods: {
            /** @description email and password (POST /v1/session) */
            password: boolean;
            /** @description single sign-on through the company's OpenID Connect provider */
            oidc: boolean;
            /** @description where a browser goes to sign in through the provider (a navigation, not an API call); null without single sign-on */
            oidc_url: string | null;
        };
        SetPasswordBody: {
            /** @description the token of a set-password link */
            token: string;
            password: string;
        };
        KeyItem: {
            id: number;
            name: string;
            /** @description the key's public id: the part after am_ and before the secret */
            kid: string;
            /** @description full, or read: GET and HEAD calls only */
            scope: "full" | "read";
            status: "active" | "expired" | "revoked";
            /** Format: date-time */
            created_at: string;
            expires_at: string | null;
            revoked_at: string | null;
        };
        KeyList: {
            items: components["schemas"]["KeyItem"][];
        };
        CreatedKey: {
            id: number;
            name: string;
            /** @description the key's public id: the part after am_ and before the secret */
            kid: string;
            /** @description full, or read: GET and HEAD calls only */
            scope: "full" | "read";
            status: "active" | "expired" | "revoked";
            /** Format: date-time */
            created_at: string;
            expires_at: string | null;
            revoked_at: string | null;
            /** @description the key, shown only in this answer: only a hash is stored */
            key: string;
        };
        CreateKeyBody: {
            name: string;
            /** @description full, or read: GET and HEAD calls only */
            scope: "full" | "read";
            /**
             * Format: date-time
             * @description when the key stops working; in the future, at most 5 years ahead
             */
            expires_at?: string;
        };
        RotatedKey: {
            id: number;
            name: string;
            /** @description the key's public id: the part after am_ and before the secret */
            kid: string;
            /** @description full, or read: GET and HEAD calls only */
            scope: "full" | "read";
            status: "active" | "expired" | "revoked";
            /** Format: date-time */
            created_at: string;
            expires_at: string | null;
            revoked_at: string | null;
            /** @description the key, shown only in this answer: only a hash is stored */
            key: string;
            old_key_id: number;
            /**
             * Format: date-time
             * @description the old key keeps working until then (24 hours, or its own earlier expiry), then stops
             */
            old_key_expires_at: string;
        };
        UserList: {
            items: components["schemas"]["AccountUser"][];
            next_cursor: string | null;
        };
        UserWithLink: {
            user: components["schemas"]["AccountUser"];
            /** @description a one-time link that sets the user's password (72 hours); null when none was made */
            set_password_url: string | null;
            set_password_expires_at: string | null;
        };
        CreateUserBody: {
            email: string;
            plan: string;
            role?: "member" | "admin";
            name?: string;
        };
        PatchUserBody: {
            plan?: string;
            role?: "member" | "admin";
            /** @description true: every key and session of the user is refused at once, on every node */
            disabled?: boolean;
            /** @description true: the password is cleared, the user's sessions end, and a new set-password link is answered */
            reset_password?: boolean;
        };
        AdminUsageItem: {
            user_id: number;
            email: string | null;
            name: string;
            plan: string;
            disabled: boolean;
            /** Format: date */
            period_start: string;
            /** Format: date */
            period_end: string;
            du_limit: number;
            /** @description in the current period */
            du_consumed: number;
            du_remaining: number;
        };
        AdminNotice: {
            id: number;
            user_id: number;
            user_name: string;
            plan: string;
            pool: string;
            threshold: number;
            /** Format: date */
            period_start: string;
            /** Format: date */
            period_end: string;
            du_limit: number;
            du_consumed: number;
            projected_eop: number;
            /** Format: date-time */
            created_at: string;
        };
        AdminUsage: {
            items: components["schemas"]["AdminUsageItem"][];
            notices: components["schemas"]["AdminNotice"][];
        };
        AuditItem: {
            id: number;
            /** Format: date-time */
            at: string;
            actor_user_id: number | null;
            actor_key_id: number | null;
            via: "session" | "key" | "cli";
            action: string;
            target_kind: string | null;
            target_id: number | null;
            address: string | null;
            detail: {
                [key: string]: unknown;
            };
        };
        AuditPage: {
            items: components["schemas"]["AuditItem"][];
            next_cursor: string | null;
        };
        NotificationsUnread: {
            /** @description notifications that came after `after` (all, without it), at most 999 */
            unread: number;
        };
        NotificationEvent: {
            /** @description the event's id: the same in the feed and in a webhook delivery's webhook-id */
            id: string;
            /** @description an event type (docs/webhooks.md) */
            type: "lot.consigned" | "lot.sold" | "lot.passed" | "lot.withdrawn" | "sale.results_published" | "artwork.estimate_changed" | "artist.index_moved";
            /**
             * Format: date-time
             * @description the market day it happened (midnight UTC)
             */
            occurred_at: string;
            /** @description the snapshot that brought it */
            snapshot_id: string;
            subject: {
                kind: "artist" | "artwork" | "lot" | "sale";
                id: number;
            };
            /** @description the event's figures (docs/webhooks.md): a lot's status, currency, hammer and estimates, and against_estimate for a sale; a work's estimate before and now; an artist's index a month before and now. The public schema (sandbox) keeps the status and month only. `object`: what the event is about (the lot, artwork, artist or sale) in the caller's schema, as the snapshot served holds it (absent when the market no longer has it) */
            data: {
                [key: string]: unknown;
            };
        };
        NotificationPage: {
            items: components["schemas"]["NotificationEvent"][];
            next_cursor: string | null;
        };
        WebhookWithSecret: {
            id: number;
            url: string;
            event_types: ("lot.consigned" | "lot.sold" | "lot.passed" | "lot.withdrawn" | "sale.results_published" | "artwork.estimate_changed" | "artist.index_moved")[];
            status: "enabled" | "disabled";
            /** @description why the destination was disabled (its owner, or deliveries that kept failing) */
            disabled_reason: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description the signing secret (whsec_…), shown only here and on rotation */
            secret: string;
        };
        CreateWebhookBody: {
            /** @description an http(s) URL that resolves to public addresses (or to a range the operator allows) */
            url: string;
            event_types: ("lot.consigned" | "lot.sold" | "lot.passed" | "lot.withdrawn" | "sale.results_published" | "artwork.estimate_changed" | "artist.index_moved")[];
        };
        Webhook: {
            id: number;
            url: string;
            event_types: ("lot.consigned" | "lot.sold" | "lot.passed" | "lot.withdrawn" | "sale.results_published" | "artwork.estimate_changed" | "artist.index_moved")[];
            status: "enabled" | "disabled";
            /** @description why the destination was disabled (its owner, or deliveries that kept failing) */
            disabled_reason: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        WebhookList: {
            items: components["schemas"]["Webhook"][];
        };
        PatchWebhookBody: {
            /** @description an http(s) URL that resolves to public addresses (or to a range the operator allows) */
            url?: string;
            event_types?: ("lot.consigned" | "lot.sold" | "lot.passed" | "lot.withdrawn" | "sale.results_published" | "artwork.estimate_changed" | "artist.index_moved")[];
            status?: "enabled" | "disabled";
        };
        WebhookTestSent: {
            event_id: string;
            /** @constant */
            type: "webhook.test";
        };
        WebhookDelivery: {
            id: number;
            /** @description the webhook-id header: the same on every attempt */
            event_id: string;
            event_type: string;
            status: "pending" | "succeeded" | "failed";
            attempts: number;
            /** @description the receiver's last HTTP status, or null (no answer) */
            last_status: number | null;
            last_error: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description when a pending delivery is tried next */
            next_attempt_at: string | null;
            finished_at: string | null;
        };
        WebhookDeliveryList: {
            items: components["schemas"]["WebhookDelivery"][];
            next_cursor: string | null;
        };
        SuggestedMatch: {
            /** @description the market artwork (GET /v1/artworks/{artwork_id}) */
            artwork_id: number;
            /** @description cosine similarity of the image embeddings of the collectable and the artwork, 6 decimals (at least 0.975 for a match) */
            score: number;
            /** @description the artwork's title */
            title: string;
            /** @description the artwork's artist (link both when it differs from the record's artist_id: only an artwork by the record's artist gives the machine estimate) */
            artist_id: number;
            /** @description the artwork's artist's name */
            artist_name: string | null;
        };
        AcquiredSchema: {
            /** @description date of the acquisition */
            date: string | null;
            /** @description price paid, in `currency` */
            price: number | null;
            /** @description the currency of price, as the owner gave it (ISO 4217, one of the 16 supported codes; USD for a price given without one); null without a price */
            currency: string | null;
            /** @description the price in USD at the reference rate of the acquisition date (of the market's as-of date when the date is unknown) */
            price_usd: number | null;
            /** @description where the work was acquired */
            location: string | null;
            /** @description how it was acquired, free text (for example auction, gallery, private, inheritance) */
            source_type: string | null;
            /** @description the seller */
            seller_name: string | null;
            /** @description the dealer or gallery */
            dealer_name: string | null;
            /** @description the auction house, when bought at auction (GET /v1/auction-houses) */
            auction_house_id: number | null;
            /** @description the auction house's name: the market's name for auction_house_id, else as given */
            auction_house_name: string | null;
            /** @description when true (and a price is known), the acquisition price replaces the machine estimate as the collectable's value, unless the owner selected a manual price */
            use_instead_of_estimates: boolean;
        };
        AppraisalSchema: {
            id: number;
            /** @description kind of appraisal, free text (for example insurance, fair market value) */
            type: string;
            /** @description appraised value, in `currency` */
            value: number;
            /** @description the currency of value, as the owner gave it (ISO 4217, one of the 16 supported codes; USD when not given) */
            currency: string;
            /** @description the value in USD at the reference rate of the appraisal date */
            value_usd: number;
            /** Format: date */
            date: string;
            /** @description who appraised the work */
            company_name: string | null;
            /** @description the owner's own best guess rather than a formal appraisal */
            is_best_guess: boolean;
        };
        ProvenanceSchema: {
            id: number;
            /** @description an owner of the work */
            owner: string;
            /** @description where the owner held it */
            location: string | null;
            /** @description first year of the ownership */
            year_from: number | null;
            /** @description last year of the ownership; null while is_up_to_present */
            year_to: number | null;
            /** @description the ownership continues to the present */
            is_up_to_present: boolean;
        };
        CollectableSaleSchema: {
            id: number;
            /** @description sale price, in `currency` */
            value: number;
            /** @description the currency of value, as the owner gave it (ISO 4217, one of the 16 supported codes; USD when not given) */
            currency: string;
            /** @description the value in USD at the reference rate of the sale date */
            value_usd: number;
            /** Format: date */
            date: string;
            /** @description where the sale took place */
            location: string | null;
            /** @description kind of sale, free text (for example private, gallery, auction) */
            type: string | null;
            /** @description the auction house, when there was one */
            auction_house_id: number | null;
            /** @description the market's name for auction_house_id */
            auction_house_name: string | null;
            /** @description the seller */
            seller_name: string | null;
        };
        CollectableSchema: {
            id: number;
            /** @description stable string id */
            uid: string;
            title: string;
            artist_id: number;
            /** @description the artist's name in the current market */
            artist_name: string | null;
            category_id: number;
            /** @description the category's name (GET /v1/categories) */
            category_name: string | null;
            /** @description the market artwork the record was seeded from or linked to */
            suggested_artwork_id: number | null;
            /** @description A suggestion, never applied by itself: market artworks the collectable's image matches so closely that it is probably that work (at most 3, best first: each scores at least 0.975 and 0.01 above the next artwork that is not a match; several when several works look the same). Empty when suggested_artwork_id is set, without an image, or with no close match. Found on read against the current market (kept in memory per image, no DU of its own). Link one with PATCH {suggested_artwork_id} (and artist_id when it differs): the machine estimate then is the artwork's. */
            suggested_matches: components["schemas"]["SuggestedMatch"][];
            /** @description year the work was made */
            creation_year: number | null;
            /** @description the value in effect, USD: see current_price_source and docs/api-collectables.md; null when nothing is known */
            current_estimated_price: number | null;
            /**
             * @description the currency of current_estimated_price and machine_estimated_price: always USD (US dollars), whatever the currencies of the owner's own amounts
             * @constant
             */
            current_estimated_price_currency: "USD";
            /** @description which value current_estimated_price is: manual, acquisition or machine */
            current_price_source: ("manual" | "acquisition" | "machine") | null;
            /** @description the market's estimate for the work, USD; null when the market knows no estimated work by the artist */
            machine_estimated_price: number | null;
            /** @description suggested_artwork: the suggested artwork's current estimate (an artwork by the record's artist); comparable_works: from the artist's estimated works */
            machine_estimate_basis: ("suggested_artwork" | "comparable_works") | null;
            /** @description the owner's own value, USD */
            manual_price_value: number | null;
            /** @description machine (default) or manual */
            selected_price_type: "machine" | "manual";
            /** @description the artist's 12-month price index momentum, a fraction clipped to -1..1 */
            price_momentum_12mo: number | null;
            /** @description condition, free text */
            condition: string | null;
            /** @description signature, free text */
            signature: string | null;
            /** @description where the work is now */
            current_location: string | null;
            /** @description unit of the measurements */
            measurements_unit: "cm" | "in";
            /** @description height */
            measurements_height: number | null;
            /** @description width */
            measurements_width: number | null;
            /** @description depth; null for flat works */
            measurements_depth: number | null;
            /** @description GET /v1/materials */
            material_ids: number[];
            /** @description GET /v1/substrates */
            substrate_ids: number[];
            /** @description GET /v1/surfaces */
            surface_ids: number[];
            /** @description GET /v1/damages */
            damage_ids: number[];
            /** @description unique: a one-off work; edition: one copy of an edition */
            edition_unique_type: "unique" | "edition";
            /** @description number of this copy within its edition */
            edition_number: number | null;
            /** @description number of copies of the edition */
            edition_size: number | null;
            /** @description the edition data again, grouped as on artworks */
            edition: {
                edition_unique_type: "unique" | "edition";
                /** @description number of this copy */
                edition_number: number | null;
                /** @description copies in the edition */
                edition_size: number | null;
            };
            /** @description signed URL of the image (1200 px wide rendition); null without image */
            image_url: string | null;
            /** @description signed URL of the 240 px wide rendition; null without image */
            image_thumbnail_url: string | null;
            acquisition: components["schemas"]["AcquiredSchema"];
            /** @description oldest date first */
            appraisals: components["schemas"]["AppraisalSchema"][];
            /** @description in the order added */
            provenance: components["schemas"]["ProvenanceSchema"][];
            /** @description private sales, oldest date first */
            sales: components["schemas"]["CollectableSaleSchema"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CollectablesListResponse: {
            items: components["schemas"]["CollectableSchema"][];
            /** @description the caller's collectables matching the filters */
            total_count: number;
            limit: number;
            offset: number;
        };
        /** @description Every field optional: only the fields sent change; null clears a nullable field; unknown fields are refused. */
        CollectableUpdateInput: {
            title?: string;
            artist_id?: number;
            category_id?: number;
            suggested_artwork_id?: number | null;
            creation_year?: number | null;
            selected_price_type?: "machine" | "manual";
            manual_price_value?: number | null;
            condition?: string | null;
            signature?: string | null;
            current_location?: string | null;
            measurements_unit?: "cm" | "in";
            measurements_height?: number | null;
            measurements_width?: number | null;
            measurements_depth?: number | null;
            /** @description the measurements grouped: the same as measurements_unit, _height, _width, _depth */
            measurements?: {
                unit?: "cm" | "in";
                height?: number | null;
                width?: number | null;
                depth?: number | null;
            };
            edition_unique_type?: "unique" | "edition";
            edition_number?: number | null;
            edition_size?: number | null;
            /** @description the edition data grouped: the same as the edition_* fields */
            edition?: {
                edition_unique_type?: "unique" | "edition";
                edition_number?: number | null;
                edition_size?: number | null;
            };
            /** @description GET /v1/materials */
            material_ids?: number[];
            /** @description GET /v1/substrates */
            substrate_ids?: number[];
            /** @description GET /v1/surfaces */
            surface_ids?: number[];
            /** @description GET /v1/damages */
            damage_ids?: number[];
        };
        CollectableDeleted: {
            /** @description the id removed */
            id: number;
            /** @constant */
            deleted: true;
        };
        AcquiredUpdateInput: {
            date?: string | null;
            price?: number | null;
            /** @description the currency of price, a code: USD, GBP, EUR, CHF, JPY, CNY, HKD, SGD, TWD, KRW, INR, AUD, CAD, NZD, NOK, RUB; null clears it (a price without one is in USD) */
            currency?: string | null;
            location?: string | null;
            source_type?: string | null;
            seller_name?: string | null;
            dealer_name?: string | null;
            auction_house_id?: number | null;
            auction_house_name?: string | null;
            use_instead_of_estimates?: boolean;
        };
        AppraisalList: components["schemas"]["AppraisalSchema"][];
        /** @description currency defaults to USD */
        AppraisalCreateInput: {
            /** @description kind of appraisal, free text (for example insurance, fair market value) */
            type: string;
            /** @description appraised value, in currency */
            value: number;
            /** @description the currency of value, a code: USD, GBP, EUR, CHF, JPY, CNY, HKD, SGD, TWD, KRW, INR, AUD, CAD, NZD, NOK, RUB */
            currency?: string;
            /** @description date of the appraisal (YYYY-MM-DD) */
            date: string;
            company_name?: string | null;
            is_best_guess?: boolean;
        };
        AppraisalUpdateInput: {
            type?: string;
            /** @description appraised value */
            value?: number;
            /** @description the currency of value, a code: USD, GBP, EUR, CHF, JPY, CNY, HKD, SGD, TWD, KRW, INR, AUD, CAD, NZD, NOK, RUB */
            currency?: string;
            /** @description date of the appraisal (YYYY-MM-DD) */
            date?: string;
            company_name?: string | null;
            is_best_guess?: boolean;
        };
        ProvenanceList: components["schemas"]["ProvenanceSchema"][];
        ProvenanceCreateInput: {
            owner: string;
            location?: string | null;
            year_from?: number | null;
            year_to?: number | null;
            is_up_to_present?: boolean;
        };
        ProvenanceUpdateInput: {
            owner?: string;
            location?: string | null;
            year_from?: number | null;
            year_to?: number | null;
            is_up_to_present?: boolean;
        };
        CollectableSaleList: components["schemas"]["CollectableSaleSchema"][];
        /** @description currency defaults to USD */
        CollectableSaleCreateInput: {
            /** @description sale price, in currency */
            value: number;
            /** @description the currency of value, a code: USD, GBP, EUR, CHF, JPY, CNY, HKD, SGD, TWD, KRW, INR, AUD, CAD, NZD, NOK, RUB */
            currency?: string;
            /** @description date of the sale (YYYY-MM-DD) */
            date: string;
            location?: string | null;
            type?: string | null;
            auction_house_id?: number | null;
            seller_name?: string | null;
        };
        CollectableSaleUpdateInput: {
            /** @description sale price */
            value?: number;
            /** @description the currency of value, a code: USD, GBP, EUR, CHF, JPY, CNY, HKD, SGD, TWD, KRW, INR, AUD, CAD, NZD, NOK, RUB */
            currency?: string;
            /** @description date of the sale (YYYY-MM-DD) */
            date?: string;
            location?: string | null;
            type?: string | null;
            auction_house_id?: number | null;
            seller_name?: string | null;
        };
        CompSchema: {
            artist_id: number;
            artwork_id: number;
            /** @description weight of the comp in the set (default 1.0) */
            weight: number;
            /** @description the artist's name in the current market; null when the market no longer has the artist */
            artist_name: string | null;
            /** @description the artwork's title in the current market; null when the market no longer has the artwork */
            artwork_title: string | null;
            /** @description cosine similarity of the image embeddings of the collectable and the comp artwork (-1..1); null when either has no embedding */
            similarity: number | null;
            /** @description the artwork is in the current market and is by artist_id (false for a pair saved with another artist's artwork, or after a market rebuild removed or reattributed it) */
            verified: boolean;
        };
        CompSetSchema: {
            /** @description in the order they were saved */
            comps: components["schemas"]["CompSchema"][];
            /** @description when the set was last saved; null when no set is saved (empty) */
            updated_at: string | null;
        };
        CompInput: {
            artist_id: number;
            artwork_id: number;
            /** @description default 1.0 */
            weight?: number;
        };
        CompSetInput: {
            /** @description the whole set, at most 50 comps, each artwork once */
            comps: components["schemas"]["CompInput"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description DU cost of this call; only when a valid bearer key is sent */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthcheckResponse"];
                };
            };
        };
    };
    listArtists: {
        parameters: {
            query?: {
                /** @description id any of (repeat the parameter or separate with commas) */
                id__in?: number[];
                /** @description uid any of (repeat the parameter or separate with commas); canonical slugs */
                uid__in?: string[];
                /** @description is_top equals; the curated top set */
                is_top?: boolean;
                /** @description nationality any of (repeat the parameter or separate with commas); values from the stats facet */
                nationality__in?: string[];
                /** @description birth greater than or equal to; birth year */
                birth__gte?: number;
                /** @description birth less than or equal to; birth year */
                birth__lte?: number;
                /** @description market_cap greater than or equal to; USD */
                market_cap__gte?: number;
                /** @description market_cap less than or equal to; USD */
                market_cap__lte?: number;
                /** @description total_sales greater than or equal to; USD */
                total_sales__gte?: number;
                /** @description total_sales less than or equal to; USD */
                total_sales__lte?: number;
                /** @description max_price greater than or equal to; USD */
                max_price__gte?: number;
                /** @description max_price less than or equal to; USD */
                max_price__lte?: number;
                /** @description artworks_count greater than or equal to */
                artworks_count__gte?: number;
                /** @description artworks_count less than or equal to */
                artworks_count__lte?: number;
                /** @description recent_lots_count greater than or equal to */
                recent_lots_count__gte?: number;
                /** @description recent_lots_count less than or equal to */
                recent_lots_count__lte?: number;
                /** @description total_sales_lots_1yr greater than or equal to */
                total_sales_lots_1yr__gte?: number;
                /** @description total_sales_lots_1yr less than or equal to */
                total_sales_lots_1yr__lte?: number;
                /** @description total_sales_price_median_1yr greater than or equal to; USD */
                total_sales_price_median_1yr__gte?: number;
                /** @description total_sales_price_median_1yr less than or equal to; USD */
                total_sales_price_median_1yr__lte?: number;
                /** @description price_momentum_percentage_12mo greater than or equal to; percent */
                price_momentum_percentage_12mo__gte?: number;
                /** @description price_momentum_percentage_12mo less than or equal to; percent */
                price_momentum_percentage_12mo__lte?: number;
                /** @description price_momentum_percentage_5y greater than or equal to; percent */
                price_momentum_percentage_5y__gte?: number;
                /** @description price_momentum_percentage_5y less than or equal to; percent */
                price_momentum_percentage_5y__lte?: number;
                /** @description free text over name and known synonyms: every word must begin a word of the name or a synonym (case and accents ignored) */
                q?: string;
                /** @description true: living artists only (no death year); false: deceased only */
                is_living?: boolean;
                /** @description true: only artists the caller follows (needs a key); false or absent: all */
                followed?: boolean;
                /** @description MARKET_CAP when absent (and no legacy sort); NULLs sort last in both directions; ties by id */
                sort_by?: "MARKET_CAP" | "TOTAL_SALES" | "MAX_PRICE" | "MEDIAN_1YR" | "RECENT_LOTS" | "LOTS_1YR" | "ARTWORKS" | "MOMENTUM_12MO" | "MOMENTUM_5Y" | "NAME" | "BIRTH";
                /** @description default desc, except NAME and BIRTH: asc */
                sort_dir?: "asc" | "desc";
                /** @description legacy: the same as sort_by=TOTAL_SALES with this direction (sort_by wins) */
                sort_by_total_sales?: "asc" | "desc";
                /** @description legacy: the same as sort_by=MARKET_CAP with this direction (sort_by and sort_by_total_sales win) */
                sort_by_market_cap?: "asc" | "desc";
                /** @description include artist_index_chart in each row (full schema only) */
                include_chart?: boolean;
                /** @description continue after the page that gave this `next_cursor` (opaque): the same filters and sort, no row skipped or repeated, however deep; `limit` may change between pages, `offset` must be absent or 0. A cursor of other filters, another sort or another snapshot is refused (422) */
                cursor?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtistListResponse"] | components["schemas"]["ArtistPublicListResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getArtistStats: {
        parameters: {
            query?: {
                /** @description id any of (repeat the parameter or separate with commas) */
                id__in?: number[];
                /** @description uid any of (repeat the parameter or separate with commas); canonical slugs */
                uid__in?: string[];
                /** @description is_top equals; the curated top set */
                is_top?: boolean;
                /** @description nationality any of (repeat the parameter or separate with commas); values from the stats facet */
                nationality__in?: string[];
                /** @description birth greater than or equal to; birth year */
                birth__gte?: number;
                /** @description birth less than or equal to; birth year */
                birth__lte?: number;
                /** @description market_cap greater than or equal to; USD */
                market_cap__gte?: number;
                /** @description market_cap less than or equal to; USD */
                market_cap__lte?: number;
                /** @description total_sales greater than or equal to; USD */
                total_sales__gte?: number;
                /** @description total_sales less than or equal to; USD */
                total_sales__lte?: number;
                /** @description max_price greater than or equal to; USD */
                max_price__gte?: number;
                /** @description max_price less than or equal to; USD */
                max_price__lte?: number;
                /** @description artworks_count greater than or equal to */
                artworks_count__gte?: number;
                /** @description artworks_count less than or equal to */
                artworks_count__lte?: number;
                /** @description recent_lots_count greater than or equal to */
                recent_lots_count__gte?: number;
                /** @description recent_lots_count less than or equal to */
                recent_lots_count__lte?: number;
                /** @description total_sales_lots_1yr greater than or equal to */
                total_sales_lots_1yr__gte?: number;
                /** @description total_sales_lots_1yr less than or equal to */
                total_sales_lots_1yr__lte?: number;
                /** @description total_sales_price_median_1yr greater than or equal to; USD */
                total_sales_price_median_1yr__gte?: number;
                /** @description total_sales_price_median_1yr less than or equal to; USD */
                total_sales_price_median_1yr__lte?: number;
                /** @description price_momentum_percentage_12mo greater than or equal to; percent */
                price_momentum_percentage_12mo__gte?: number;
                /** @description price_momentum_percentage_12mo less than or equal to; percent */
                price_momentum_percentage_12mo__lte?: number;
                /** @description price_momentum_percentage_5y greater than or equal to; percent */
                price_momentum_percentage_5y__gte?: number;
                /** @description price_momentum_percentage_5y less than or equal to; percent */
                price_momentum_percentage_5y__lte?: number;
                /** @description free text over name and known synonyms: every word must begin a word of the name or a synonym (case and accents ignored) */
                q?: string;
                /** @description true: living artists only (no death year); false: deceased only */
                is_living?: boolean;
                /** @description true: only artists the caller follows (needs a key); false or absent: all */
                followed?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtistStatsResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listFollowedArtists: {
        parameters: {
            query?: {
                /** @description include artist_index_chart in each row (full schema only) */
                include_chart?: boolean;
                /** @description continue after the page that gave this `next_cursor` (opaque): the same filters and sort, no row skipped or repeated, however deep; `limit` may change between pages, `offset` must be absent or 0. A cursor of other filters, another sort or another snapshot is refused (422) */
                cursor?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtistListResponse"] | components["schemas"]["ArtistPublicListResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getArtist: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtistSchema"] | components["schemas"]["ArtistPublicSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getArtistChart: {
        parameters: {
            query?: {
                /** @description monthly (default), yearly, or daily (the last two years, interpolated) */
                resolution?: "daily" | "monthly" | "yearly";
            };
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtistChartResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listRelatedArtists: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelatedArtistsResponse"] | components["schemas"]["RelatedArtistsPublicResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listArtistEvents: {
        parameters: {
            query?: {
                /** @description one or more event types (repeat or comma-separate); absent: all */
                type?: ("Life Events" | "Major Exhibitions" | "Major Publications" | "Major Sales")[];
            };
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtistEventsResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getArtistSalesVolume: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SalesVolumeResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getArtistSharpeRatios: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharpeRatioResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getArtistCareerPathCount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CareerPathCountResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getArtistCareerPathEstimate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CareerPathEstimateResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getArtistReturnsVsPeriod: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReturnsVsPeriodResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getArtistCompoundAnnualReturns: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompoundAnnualReturnsResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listArtworks: {
        parameters: {
            query?: {
                /** @description id any of (repeat the parameter or separate with commas); artwork ids */
                id__in?: number[];
                /** @description uid equals; artwork uids */
                uid?: string;
                /** @description uid any of (repeat the parameter or separate with commas); artwork uids */
                uid__in?: string[];
                /** @description artist_id equals */
                artist_id?: number;
                /** @description artist_id any of (repeat the parameter or separate with commas) */
                artist_id__in?: number[];
                /** @description category_id equals; see GET /v1/categories */
                category_id?: number;
                /** @description category_id any of (repeat the parameter or separate with commas); see GET /v1/categories */
                category_id__in?: number[];
                /** @description creation_year greater than or equal to */
                creation_year__gte?: number;
                /** @description creation_year less than or equal to */
                creation_year__lte?: number;
                /** @description size equals; normalised size bucket (largest of height and width: < 40 cm small, < 100 cm medium, else big; other: three-dimensional or unknown) */
                size?: "small" | "medium" | "big" | "other";
                /** @description size equals; normalised size bucket (largest of height and width: < 40 cm small, < 100 cm medium, else big; other: three-dimensional or unknown) */
                size__eq?: "small" | "medium" | "big" | "other";
                /** @description size any of (repeat the parameter or separate with commas); normalised size bucket (largest of height and width: < 40 cm small, < 100 cm medium, else big; other: three-dimensional or unknown) */
                size__in?: ("small" | "medium" | "big" | "other")[];
                /** @description measurements_height_cm greater than or equal to; height in cm */
                measurements_height_cm__gte?: number;
                /** @description measurements_height_cm less than or equal to; height in cm */
                measurements_height_cm__lte?: number;
                /** @description measurements_width_cm greater than or equal to; width in cm */
                measurements_width_cm__gte?: number;
                /** @description measurements_width_cm less than or equal to; width in cm */
                measurements_width_cm__lte?: number;
                /** @description measurements_depth_cm greater than or equal to; depth in cm */
                measurements_depth_cm__gte?: number;
                /** @description measurements_depth_cm less than or equal to; depth in cm */
                measurements_depth_cm__lte?: number;
                /** @description materials equals; matches the medium text, case-insensitive, as whole words: oil matches "oil on canvas", "oil on canvas" matches itself; underscores count as spaces, so the names of GET /v1/materials work (silver_gelatin) */
                materials?: string;
                /** @description materials any of (repeat the parameter or separate with commas); matches the medium text, case-insensitive, as whole words: oil matches "oil on canvas", "oil on canvas" matches itself; underscores count as spaces, so the names of GET /v1/materials work (silver_gelatin) */
                materials__in?: string[];
                /** @description last_lot_status equals; outcome of the most recent lot */
                last_lot_status?: "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";
                /** @description last_lot_status any of (repeat the parameter or separate with commas); outcome of the most recent lot */
                last_lot_status__in?: ("unknown" | "upcoming" | "withdrawn" | "sold" | "passed")[];
                /** @description date_last_sold greater than or equal to */
                date_last_sold__gte?: string;
                /** @description date_last_sold less than or equal to */
                date_last_sold__lte?: string;
                /** @description date_last_upcoming greater than or equal to */
                date_last_upcoming__gte?: string;
                /** @description date_last_upcoming less than or equal to */
                date_last_upcoming__lte?: string;
                /** @description current_estimated_price greater than or equal to; current estimate, USD */
                current_estimated_price__gte?: number;
                /** @description current_estimated_price less than or equal to; current estimate, USD */
                current_estimated_price__lte?: number;
                /** @description price_momentum_12mo greater than or equal to; a fraction, -1.0 to 1.0 */
                price_momentum_12mo__gte?: number;
                /** @description price_momentum_12mo less than or equal to; a fraction, -1.0 to 1.0 */
                price_momentum_12mo__lte?: number;
                /** @description last_hammer_price_usd greater than or equal to; hammer of the most recent sale, USD */
                last_hammer_price_usd__gte?: number;
                /** @description last_hammer_price_usd less than or equal to; hammer of the most recent sale, USD */
                last_hammer_price_usd__lte?: number;
                /** @description last_premium_price_usd greater than or equal to; price with premium of the most recent sale, USD */
                last_premium_price_usd__gte?: number;
                /** @description last_premium_price_usd less than or equal to; price with premium of the most recent sale, USD */
                last_premium_price_usd__lte?: number;
                /** @description sale_auction_house_id any of (repeat the parameter or separate with commas); works with an upcoming lot at one of these auction houses */
                sale_auction_house_id__in?: number[];
                /** @description sale_start_datetime greater than or equal to; works with an upcoming lot whose sale starts in this window (with sale_auction_house_id__in: the same lot) */
                sale_start_datetime__gte?: string;
                /** @description sale_start_datetime less than or equal to; works with an upcoming lot whose sale starts in this window (with sale_auction_house_id__in: the same lot) */
                sale_start_datetime__lte?: string;
                /** @description market_cap greater than or equal to; the artist's market cap, USD */
                market_cap__gte?: number;
                /** @description market_cap less than or equal to; the artist's market cap, USD */
                market_cap__lte?: number;
                /** @description adds the *_preferred values, converted from USD at the reference rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
                /** @description order by the current estimate (NULLs last); takes precedence over sort */
                sort_by_price?: "asc" | "desc";
                /** @description true: only unique works (no copies of an edition); false: no filter */
                without_editions?: boolean;
                /** @description true: only works with an image; false (default): no filter */
                with_images?: boolean;
                /** @description continue after the page that gave this `next_cursor` (opaque): the same filters and sort, no row skipped or repeated, however deep; `limit` may change between pages, `offset` must be absent or 0. A cursor of other filters, another sort or another snapshot is refused (422) */
                cursor?: string;
                sort?: "NAME_ASC" | "NAME_DESC" | "CREATION_YEAR_ASC" | "CREATION_YEAR_DESC" | "SALE_DATE_ASC" | "SALE_DATE_DESC" | "SIZE_ASC" | "SIZE_DESC";
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtworksResponse"] | components["schemas"]["ArtworksPublicResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listRecommendedArtworks: {
        parameters: {
            query?: {
                /** @description adds the *_preferred values, converted from USD at the reference rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtworksResponse"] | components["schemas"]["ArtworksPublicResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listFollowedArtworks: {
        parameters: {
            query?: {
                /** @description id any of (repeat the parameter or separate with commas); artwork ids */
                id__in?: number[];
                /** @description uid equals; artwork uids */
                uid?: string;
                /** @description uid any of (repeat the parameter or separate with commas); artwork uids */
                uid__in?: string[];
                /** @description artist_id equals */
                artist_id?: number;
                /** @description artist_id any of (repeat the parameter or separate with commas) */
                artist_id__in?: number[];
                /** @description category_id equals; see GET /v1/categories */
                category_id?: number;
                /** @description category_id any of (repeat the parameter or separate with commas); see GET /v1/categories */
                category_id__in?: number[];
                /** @description creation_year greater than or equal to */
                creation_year__gte?: number;
                /** @description creation_year less than or equal to */
                creation_year__lte?: number;
                /** @description size equals; normalised size bucket (largest of height and width: < 40 cm small, < 100 cm medium, else big; other: three-dimensional or unknown) */
                size?: "small" | "medium" | "big" | "other";
                /** @description size equals; normalised size bucket (largest of height and width: < 40 cm small, < 100 cm medium, else big; other: three-dimensional or unknown) */
                size__eq?: "small" | "medium" | "big" | "other";
                /** @description size any of (repeat the parameter or separate with commas); normalised size bucket (largest of height and width: < 40 cm small, < 100 cm medium, else big; other: three-dimensional or unknown) */
                size__in?: ("small" | "medium" | "big" | "other")[];
                /** @description measurements_height_cm greater than or equal to; height in cm */
                measurements_height_cm__gte?: number;
                /** @description measurements_height_cm less than or equal to; height in cm */
                measurements_height_cm__lte?: number;
                /** @description measurements_width_cm greater than or equal to; width in cm */
                measurements_width_cm__gte?: number;
                /** @description measurements_width_cm less than or equal to; width in cm */
                measurements_width_cm__lte?: number;
                /** @description measurements_depth_cm greater than or equal to; depth in cm */
                measurements_depth_cm__gte?: number;
                /** @description measurements_depth_cm less than or equal to; depth in cm */
                measurements_depth_cm__lte?: number;
                /** @description materials equals; matches the medium text, case-insensitive, as whole words: oil matches "oil on canvas", "oil on canvas" matches itself; underscores count as spaces, so the names of GET /v1/materials work (silver_gelatin) */
                materials?: string;
                /** @description materials any of (repeat the parameter or separate with commas); matches the medium text, case-insensitive, as whole words: oil matches "oil on canvas", "oil on canvas" matches itself; underscores count as spaces, so the names of GET /v1/materials work (silver_gelatin) */
                materials__in?: string[];
                /** @description last_lot_status equals; outcome of the most recent lot */
                last_lot_status?: "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";
                /** @description last_lot_status any of (repeat the parameter or separate with commas); outcome of the most recent lot */
                last_lot_status__in?: ("unknown" | "upcoming" | "withdrawn" | "sold" | "passed")[];
                /** @description date_last_sold greater than or equal to */
                date_last_sold__gte?: string;
                /** @description date_last_sold less than or equal to */
                date_last_sold__lte?: string;
                /** @description date_last_upcoming greater than or equal to */
                date_last_upcoming__gte?: string;
                /** @description date_last_upcoming less than or equal to */
                date_last_upcoming__lte?: string;
                /** @description current_estimated_price greater than or equal to; current estimate, USD */
                current_estimated_price__gte?: number;
                /** @description current_estimated_price less than or equal to; current estimate, USD */
                current_estimated_price__lte?: number;
                /** @description price_momentum_12mo greater than or equal to; a fraction, -1.0 to 1.0 */
                price_momentum_12mo__gte?: number;
                /** @description price_momentum_12mo less than or equal to; a fraction, -1.0 to 1.0 */
                price_momentum_12mo__lte?: number;
                /** @description last_hammer_price_usd greater than or equal to; hammer of the most recent sale, USD */
                last_hammer_price_usd__gte?: number;
                /** @description last_hammer_price_usd less than or equal to; hammer of the most recent sale, USD */
                last_hammer_price_usd__lte?: number;
                /** @description last_premium_price_usd greater than or equal to; price with premium of the most recent sale, USD */
                last_premium_price_usd__gte?: number;
                /** @description last_premium_price_usd less than or equal to; price with premium of the most recent sale, USD */
                last_premium_price_usd__lte?: number;
                /** @description sale_auction_house_id any of (repeat the parameter or separate with commas); works with an upcoming lot at one of these auction houses */
                sale_auction_house_id__in?: number[];
                /** @description sale_start_datetime greater than or equal to; works with an upcoming lot whose sale starts in this window (with sale_auction_house_id__in: the same lot) */
                sale_start_datetime__gte?: string;
                /** @description sale_start_datetime less than or equal to; works with an upcoming lot whose sale starts in this window (with sale_auction_house_id__in: the same lot) */
                sale_start_datetime__lte?: string;
                /** @description market_cap greater than or equal to; the artist's market cap, USD */
                market_cap__gte?: number;
                /** @description market_cap less than or equal to; the artist's market cap, USD */
                market_cap__lte?: number;
                /** @description adds the *_preferred values, converted from USD at the reference rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
                /** @description order by the current estimate (NULLs last); takes precedence over sort */
                sort_by_price?: "asc" | "desc";
                /** @description true: only unique works (no copies of an edition); false: no filter */
                without_editions?: boolean;
                /** @description true: only works with an image; false (default): no filter */
                with_images?: boolean;
                /** @description continue after the page that gave this `next_cursor` (opaque): the same filters and sort, no row skipped or repeated, however deep; `limit` may change between pages, `offset` must be absent or 0. A cursor of other filters, another sort or another snapshot is refused (422) */
                cursor?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtworksResponse"] | components["schemas"]["ArtworksPublicResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    shareArtworks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ArtworkShareInput"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtworkShareCreated"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A read-only key (scope read) makes GET and HEAD calls only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSharedArtworks: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description DU cost of this call; only when a valid bearer key is sent */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedArtworksResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    getArtwork: {
        parameters: {
            query?: {
                /** @description adds the *_preferred values, converted from USD at the reference rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
                /** @description answers with the estimate values in effect on this day (YYYY-MM-DD): for audits and year-end valuations. From the first snapshot the service kept (earlier: 422); on or after the market's as-of date, the current values */
                as_of?: string;
            };
            header?: never;
            path: {
                artwork_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtworkSchema"] | components["schemas"]["ArtworkPublicSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getArtworkChart: {
        parameters: {
            query?: {
                /** @description adds the *_preferred values, converted from USD at the reference rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
            };
            header?: never;
            path: {
                artwork_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtworkChartResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listArtworkEditions: {
        parameters: {
            query?: {
                /** @description adds the *_preferred values, converted from USD at the reference rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
            };
            header?: never;
            path: {
                artwork_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EditionsResponse"] | components["schemas"]["EditionsPublicResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getArtworkCagr: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artwork_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtworkCagrResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listSimilarArtworks: {
        parameters: {
            query?: {
                /** @description adds the *_preferred values, converted from USD at the reference rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
                /** @description neighbours returned, 1 to 100 (default 20) */
                limit?: number;
            };
            header?: never;
            path: {
                artwork_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SimilarArtworksResponse"] | components["schemas"]["SimilarArtworksPublicResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    searchArtworksByImage: {
        parameters: {
            query?: {
                /** @description artist_id equals */
                artist_id?: number;
                /** @description artist_id any of (repeat the parameter or separate with commas) */
                artist_id__in?: number[];
                /** @description category_id equals; see GET /v1/categories */
                category_id?: number;
                /** @description category_id any of (repeat the parameter or separate with commas); see GET /v1/categories */
                category_id__in?: number[];
                /** @description creation_year greater than or equal to */
                creation_year__gte?: number;
                /** @description creation_year less than or equal to */
                creation_year__lte?: number;
                /** @description size equals; normalised size bucket (largest of height and width: < 40 cm small, < 100 cm medium, else big; other: three-dimensional or unknown) */
                size?: "small" | "medium" | "big" | "other";
                /** @description size equals; normalised size bucket (largest of height and width: < 40 cm small, < 100 cm medium, else big; other: three-dimensional or unknown) */
                size__eq?: "small" | "medium" | "big" | "other";
                /** @description size any of (repeat the parameter or separate with commas); normalised size bucket (largest of height and width: < 40 cm small, < 100 cm medium, else big; other: three-dimensional or unknown) */
                size__in?: ("small" | "medium" | "big" | "other")[];
                /** @description measurements_height_cm greater than or equal to; height in cm */
                measurements_height_cm__gte?: number;
                /** @description measurements_height_cm less than or equal to; height in cm */
                measurements_height_cm__lte?: number;
                /** @description measurements_width_cm greater than or equal to; width in cm */
                measurements_width_cm__gte?: number;
                /** @description measurements_width_cm less than or equal to; width in cm */
                measurements_width_cm__lte?: number;
                /** @description measurements_depth_cm greater than or equal to; depth in cm */
                measurements_depth_cm__gte?: number;
                /** @description measurements_depth_cm less than or equal to; depth in cm */
                measurements_depth_cm__lte?: number;
                /** @description materials equals; matches the medium text, case-insensitive, as whole words: oil matches "oil on canvas", "oil on canvas" matches itself; underscores count as spaces, so the names of GET /v1/materials work (silver_gelatin) */
                materials?: string;
                /** @description materials any of (repeat the parameter or separate with commas); matches the medium text, case-insensitive, as whole words: oil matches "oil on canvas", "oil on canvas" matches itself; underscores count as spaces, so the names of GET /v1/materials work (silver_gelatin) */
                materials__in?: string[];
                /** @description last_lot_status equals; outcome of the most recent lot */
                last_lot_status?: "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";
                /** @description last_lot_status any of (repeat the parameter or separate with commas); outcome of the most recent lot */
                last_lot_status__in?: ("unknown" | "upcoming" | "withdrawn" | "sold" | "passed")[];
                /** @description date_last_sold greater than or equal to */
                date_last_sold__gte?: string;
                /** @description date_last_sold less than or equal to */
                date_last_sold__lte?: string;
                /** @description date_last_upcoming greater than or equal to */
                date_last_upcoming__gte?: string;
                /** @description date_last_upcoming less than or equal to */
                date_last_upcoming__lte?: string;
                /** @description current_estimated_price greater than or equal to; current estimate, USD */
                current_estimated_price__gte?: number;
                /** @description current_estimated_price less than or equal to; current estimate, USD */
                current_estimated_price__lte?: number;
                /** @description price_momentum_12mo greater than or equal to; a fraction, -1.0 to 1.0 */
                price_momentum_12mo__gte?: number;
                /** @description price_momentum_12mo less than or equal to; a fraction, -1.0 to 1.0 */
                price_momentum_12mo__lte?: number;
                /** @description last_hammer_price_usd greater than or equal to; hammer of the most recent sale, USD */
                last_hammer_price_usd__gte?: number;
                /** @description last_hammer_price_usd less than or equal to; hammer of the most recent sale, USD */
                last_hammer_price_usd__lte?: number;
                /** @description last_premium_price_usd greater than or equal to; price with premium of the most recent sale, USD */
                last_premium_price_usd__gte?: number;
                /** @description last_premium_price_usd less than or equal to; price with premium of the most recent sale, USD */
                last_premium_price_usd__lte?: number;
                /** @description market_cap greater than or equal to; the artist's market cap, USD */
                market_cap__gte?: number;
                /** @description market_cap less than or equal to; the artist's market cap, USD */
                market_cap__lte?: number;
                /** @description anchor: an http(s) address of the query picture (exactly one of image, image_url, collectable_id) */
                image_url?: string;
                /** @description anchor: one of the caller's own collectables, by its image (exactly one of image, image_url, collectable_id) */
                collectable_id?: number;
                /** @description leave out results whose score (cosine similarity) is below this */
                min_score?: number;
                /** @description artworks never returned (repeat or comma-separate; at most 1000) */
                exclude_artwork_id__in?: number[];
                /** @description results returned, 1 to 200 (default 50) */
                limit?: number;
                /** @description true: only unique works (no copies of an edition); false: no filter */
                without_editions?: boolean;
                /** @description adds the *_preferred values, converted from USD at the reference rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "multipart/form-data": {
                    /** @description anchor: an http(s) address of the query picture (exactly one of image, image_url, collectable_id) */
                    image_url?: string;
                    /** @description anchor: one of the caller's own collectables, by its image (exactly one of image, image_url, collectable_id) */
                    collectable_id?: number;
                    /** @description leave out results whose score (cosine similarity) is below this */
                    min_score?: number;
                    /** @description artworks never returned (repeat the field or comma-separate) */
                    exclude_artwork_id__in?: number[];
                    /** @description results returned, 1 to 200 (default 50) */
                    limit?: number;
                    /**
                     * Format: binary
                     * @description the query picture (anchor)
                     */
                    image?: Blob | File;
                };
                "application/json": {
                    /** @description anchor: an http(s) address of the query picture (exactly one of image, image_url, collectable_id) */
                    image_url?: string;
                    /** @description anchor: one of the caller's own collectables, by its image (exactly one of image, image_url, collectable_id) */
                    collectable_id?: number;
                    /** @description leave out results whose score (cosine similarity) is below this */
                    min_score?: number;
                    /** @description artworks never returned (repeat the field or comma-separate) */
                    exclude_artwork_id__in?: number[];
                    /** @description results returned, 1 to 200 (default 50) */
                    limit?: number;
                };
            };
        };
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchByImageResponse"] | components["schemas"]["SearchByImagePublicResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not multipart/form-data, urlencoded or a JSON object (an uploaded file that is not a supported image is a 422) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listLots: {
        parameters: {
            query?: {
                /** @description status equals */
                status?: "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";
                /** @description status any of (repeat the parameter or separate with commas) */
                status__in?: ("unknown" | "upcoming" | "withdrawn" | "sold" | "passed")[];
                /** @description sale_status equals; state of the lot's sale */
                sale_status?: "closed" | "upcoming" | "live" | "session_off";
                /** @description sale_status any of (repeat the parameter or separate with commas); state of the lot's sale */
                sale_status__in?: ("closed" | "upcoming" | "live" | "session_off")[];
                /** @description auction_house_id equals */
                auction_house_id?: number;
                /** @description auction_house_id any of (repeat the parameter or separate with commas) */
                auction_house_id__in?: number[];
                /** @description sale_auction_house_id equals; the house of the lot's sale; the same as auction_house_id */
                sale_auction_house_id?: number;
                /** @description sale_auction_house_id any of (repeat the parameter or separate with commas); the house of the lot's sale; the same as auction_house_id */
                sale_auction_house_id__in?: number[];
                /** @description sale_id equals */
                sale_id?: number;
                /** @description sale_id any of (repeat the parameter or separate with commas) */
                sale_id__in?: number[];
                /** @description sale_location equals; a location name from /v1/auction-locations (exact, case-insensitive) */
                sale_location?: string;
                /** @description sale_location any of (repeat the parameter or separate with commas); a location name from /v1/auction-locations (exact, case-insensitive) */
                sale_location__in?: string[];
                /** @description sale_datetime greater than or equal to; start of the lot's sale */
                sale_datetime__gte?: string;
                /** @description sale_datetime less than or equal to; start of the lot's sale */
                sale_datetime__lte?: string;
                /** @description hammer_price_usd greater than or equal to; USD; lots without a hammer never match */
                hammer_price_usd__gte?: number;
                /** @description hammer_price_usd less than or equal to; USD; lots without a hammer never match */
                hammer_price_usd__lte?: number;
                /** @description hammer_price_estimate_max_usd greater than or equal to; high estimate in USD */
                hammer_price_estimate_max_usd__gte?: number;
                /** @description hammer_price_estimate_max_usd less than or equal to; high estimate in USD */
                hammer_price_estimate_max_usd__lte?: number;
                /** @description premium_price_usd greater than or equal to; price with buyer's premium in USD */
                premium_price_usd__gte?: number;
                /** @description premium_price_usd less than or equal to; price with buyer's premium in USD */
                premium_price_usd__lte?: number;
                /** @description artist_id equals */
                artist_id?: number;
                /** @description artist_id any of (repeat the parameter or separate with commas) */
                artist_id__in?: number[];
                /** @description artist_uid equals; the artist's canonical slug */
                artist_uid?: string;
                /** @description artwork_id equals */
                artwork_id?: number;
                /** @description artwork_id any of (repeat the parameter or separate with commas) */
                artwork_id__in?: number[];
                /** @description artwork_uid equals; the artwork's uid */
                artwork_uid?: string;
                /** @description creation_year greater than or equal to */
                creation_year__gte?: number;
                /** @description creation_year less than or equal to */
                creation_year__lte?: number;
                /** @description is_top equals */
                is_top?: boolean;
                /** @description sale_probability greater than or equal to; an upcoming lot's chance of selling (0..1, docs/derivation.md); lots of other statuses never match */
                sale_probability__gte?: number;
                /** @description sale_probability less than or equal to; an upcoming lot's chance of selling (0..1, docs/derivation.md); lots of other statuses never match */
                sale_probability__lte?: number;
                /** @description free text over the artist's name, the artwork's title and the lot's notes: every word must occur (whole words, case and accents ignored) */
                search?: string;
                /** @description adds the *_preferred values, converted from USD at the reference rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
                /** @description continue after the page that gave this `next_cursor` (opaque): the same filters and sort, no row skipped or repeated, however deep; `limit` may change between pages, `offset` must be absent or 0. A cursor of other filters, another sort or another snapshot is refused (422) */
                cursor?: string;
                sort?: "RAW_LOT_ID_ASC" | "RAW_LOT_ID_DESC" | "NUMBER_ASC" | "NUMBER_DESC" | "SALE_DATE_ASC" | "SALE_DATE_DESC" | "CREATION_YEAR_ASC" | "CREATION_YEAR_DESC" | "HAMMER_PRICE_ESTIMATE_MIN_ASC" | "HAMMER_PRICE_ESTIMATE_MIN_DESC" | "HAMMER_PRICE_ESTIMATE_MAX_ASC" | "HAMMER_PRICE_ESTIMATE_MAX_DESC" | "SALE_PROBABILITY_ASC" | "SALE_PROBABILITY_DESC";
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LotsResponse"] | components["schemas"]["LotsPublicResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listFollowedLots: {
        parameters: {
            query?: {
                /** @description status equals */
                status?: "unknown" | "upcoming" | "withdrawn" | "sold" | "passed";
                /** @description status any of (repeat the parameter or separate with commas) */
                status__in?: ("unknown" | "upcoming" | "withdrawn" | "sold" | "passed")[];
                /** @description sale_status equals; state of the lot's sale */
                sale_status?: "closed" | "upcoming" | "live" | "session_off";
                /** @description sale_status any of (repeat the parameter or separate with commas); state of the lot's sale */
                sale_status__in?: ("closed" | "upcoming" | "live" | "session_off")[];
                /** @description auction_house_id equals */
                auction_house_id?: number;
                /** @description auction_house_id any of (repeat the parameter or separate with commas) */
                auction_house_id__in?: number[];
                /** @description sale_auction_house_id equals; the house of the lot's sale; the same as auction_house_id */
                sale_auction_house_id?: number;
                /** @description sale_auction_house_id any of (repeat the parameter or separate with commas); the house of the lot's sale; the same as auction_house_id */
                sale_auction_house_id__in?: number[];
                /** @description sale_id equals */
                sale_id?: number;
                /** @description sale_id any of (repeat the parameter or separate with commas) */
                sale_id__in?: number[];
                /** @description sale_location equals; a location name from /v1/auction-locations (exact, case-insensitive) */
                sale_location?: string;
                /** @description sale_location any of (repeat the parameter or separate with commas); a location name from /v1/auction-locations (exact, case-insensitive) */
                sale_location__in?: string[];
                /** @description sale_datetime greater than or equal to; start of the lot's sale */
                sale_datetime__gte?: string;
                /** @description sale_datetime less than or equal to; start of the lot's sale */
                sale_datetime__lte?: string;
                /** @description hammer_price_usd greater than or equal to; USD; lots without a hammer never match */
                hammer_price_usd__gte?: number;
                /** @description hammer_price_usd less than or equal to; USD; lots without a hammer never match */
                hammer_price_usd__lte?: number;
                /** @description hammer_price_estimate_max_usd greater than or equal to; high estimate in USD */
                hammer_price_estimate_max_usd__gte?: number;
                /** @description hammer_price_estimate_max_usd less than or equal to; high estimate in USD */
                hammer_price_estimate_max_usd__lte?: number;
                /** @description premium_price_usd greater than or equal to; price with buyer's premium in USD */
                premium_price_usd__gte?: number;
                /** @description premium_price_usd less than or equal to; price with buyer's premium in USD */
                premium_price_usd__lte?: number;
                /** @description artist_id equals */
                artist_id?: number;
                /** @description artist_id any of (repeat the parameter or separate with commas) */
                artist_id__in?: number[];
                /** @description artist_uid equals; the artist's canonical slug */
                artist_uid?: string;
                /** @description artwork_id equals */
                artwork_id?: number;
                /** @description artwork_id any of (repeat the parameter or separate with commas) */
                artwork_id__in?: number[];
                /** @description artwork_uid equals; the artwork's uid */
                artwork_uid?: string;
                /** @description creation_year greater than or equal to */
                creation_year__gte?: number;
                /** @description creation_year less than or equal to */
                creation_year__lte?: number;
                /** @description is_top equals */
                is_top?: boolean;
                /** @description sale_probability greater than or equal to; an upcoming lot's chance of selling (0..1, docs/derivation.md); lots of other statuses never match */
                sale_probability__gte?: number;
                /** @description sale_probability less than or equal to; an upcoming lot's chance of selling (0..1, docs/derivation.md); lots of other statuses never match */
                sale_probability__lte?: number;
                /** @description free text over the artist's name, the artwork's title and the lot's notes: every word must occur (whole words, case and accents ignored) */
                search?: string;
                /** @description adds the *_preferred values, converted from USD at the reference rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
                /** @description continue after the page that gave this `next_cursor` (opaque): the same filters and sort, no row skipped or repeated, however deep; `limit` may change between pages, `offset` must be absent or 0. A cursor of other filters, another sort or another snapshot is refused (422) */
                cursor?: string;
                sort?: "RAW_LOT_ID_ASC" | "RAW_LOT_ID_DESC" | "NUMBER_ASC" | "NUMBER_DESC" | "SALE_DATE_ASC" | "SALE_DATE_DESC" | "CREATION_YEAR_ASC" | "CREATION_YEAR_DESC" | "HAMMER_PRICE_ESTIMATE_MIN_ASC" | "HAMMER_PRICE_ESTIMATE_MIN_DESC" | "HAMMER_PRICE_ESTIMATE_MAX_ASC" | "HAMMER_PRICE_ESTIMATE_MAX_DESC" | "SALE_PROBABILITY_ASC" | "SALE_PROBABILITY_DESC";
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LotsResponse"] | components["schemas"]["LotsPublicResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    shareLots: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LotShareInput"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LotShareCreated"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A read-only key (scope read) makes GET and HEAD calls only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSharedLots: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description DU cost of this call; only when a valid bearer key is sent */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedLotsResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    getLot: {
        parameters: {
            query?: {
                /** @description adds the *_preferred values, converted from USD at the reference rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
            };
            header?: never;
            path: {
                lot_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LotSchema"] | components["schemas"]["LotPublicSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listSales: {
        parameters: {
            query?: {
                /** @description auction_house_id equals */
                auction_house_id?: number;
                /** @description auction_house_id any of (repeat the parameter or separate with commas) */
                auction_house_id__in?: number[];
                /** @description name case-insensitive substring of */
                name__ilike?: string;
                /** @description status equals */
                status?: "closed" | "upcoming" | "live" | "session_off";
                /** @description status any of (repeat the parameter or separate with commas) */
                status__in?: ("closed" | "upcoming" | "live" | "session_off")[];
                /** @description is_online equals */
                is_online?: boolean;
                /** @description is_bids_streaming equals */
                is_bids_streaming?: boolean;
                /** @description location equals; a name from /v1/auction-locations (exact) */
                location?: string;
                /** @description location any of (repeat the parameter or separate with commas); a name from /v1/auction-locations (exact) */
                location__in?: string[];
                /** @description location_id equals */
                location_id?: number;
                /** @description location_id any of (repeat the parameter or separate with commas) */
                location_id__in?: number[];
                /** @description start_datetime greater than or equal to */
                start_datetime__gte?: string;
                /** @description start_datetime less than or equal to */
                start_datetime__lte?: string;
                /** @description end_datetime greater than or equal to */
                end_datetime__gte?: string;
                /** @description end_datetime less than or equal to */
                end_datetime__lte?: string;
                /** @description adds the *_preferred totals, converted from USD at the rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
                /** @description continue after the page that gave this `next_cursor` (opaque): the same filters and sort, no row skipped or repeated, however deep; `limit` may change between pages, `offset` must be absent or 0. A cursor of other filters, another sort or another snapshot is refused (422) */
                cursor?: string;
                sort?: "ID_ASC" | "ID_DESC" | "START_DATETIME_ASC" | "START_DATETIME_DESC" | "END_DATETIME_ASC" | "END_DATETIME_DESC" | "DATE_ASC" | "DATE_DESC";
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SalesResponse"] | components["schemas"]["SalesPublicResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listFollowedSales: {
        parameters: {
            query?: {
                /** @description auction_house_id equals */
                auction_house_id?: number;
                /** @description auction_house_id any of (repeat the parameter or separate with commas) */
                auction_house_id__in?: number[];
                /** @description name case-insensitive substring of */
                name__ilike?: string;
                /** @description status equals */
                status?: "closed" | "upcoming" | "live" | "session_off";
                /** @description status any of (repeat the parameter or separate with commas) */
                status__in?: ("closed" | "upcoming" | "live" | "session_off")[];
                /** @description is_online equals */
                is_online?: boolean;
                /** @description is_bids_streaming equals */
                is_bids_streaming?: boolean;
                /** @description location equals; a name from /v1/auction-locations (exact) */
                location?: string;
                /** @description location any of (repeat the parameter or separate with commas); a name from /v1/auction-locations (exact) */
                location__in?: string[];
                /** @description location_id equals */
                location_id?: number;
                /** @description location_id any of (repeat the parameter or separate with commas) */
                location_id__in?: number[];
                /** @description start_datetime greater than or equal to */
                start_datetime__gte?: string;
                /** @description start_datetime less than or equal to */
                start_datetime__lte?: string;
                /** @description end_datetime greater than or equal to */
                end_datetime__gte?: string;
                /** @description end_datetime less than or equal to */
                end_datetime__lte?: string;
                /** @description adds the *_preferred totals, converted from USD at the rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
                /** @description continue after the page that gave this `next_cursor` (opaque): the same filters and sort, no row skipped or repeated, however deep; `limit` may change between pages, `offset` must be absent or 0. A cursor of other filters, another sort or another snapshot is refused (422) */
                cursor?: string;
                sort?: "ID_ASC" | "ID_DESC" | "START_DATETIME_ASC" | "START_DATETIME_DESC" | "END_DATETIME_ASC" | "END_DATETIME_DESC" | "DATE_ASC" | "DATE_DESC";
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SalesResponse"] | components["schemas"]["SalesPublicResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSale: {
        parameters: {
            query?: {
                /** @description adds the *_preferred totals, converted from USD at the rate of the sale's day */
                preferred_currency?: "USD" | "GBP" | "EUR" | "CHF" | "JPY" | "CNY" | "HKD" | "SGD" | "TWD" | "KRW" | "INR" | "AUD" | "CAD" | "NZD" | "NOK" | "RUB";
            };
            header?: never;
            path: {
                sale_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full schema for entitled callers, the reduced public schema for the others */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SaleSchema"] | components["schemas"]["SalePublicSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    followArtist: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A read-only key (scope read) makes GET and HEAD calls only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    unfollowArtist: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artist_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A read-only key (scope read) makes GET and HEAD calls only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    followArtwork: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artwork_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A read-only key (scope read) makes GET and HEAD calls only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    unfollowArtwork: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artwork_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A read-only key (scope read) makes GET and HEAD calls only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    followLot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lot_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A read-only key (scope read) makes GET and HEAD calls only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    unfollowLot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lot_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A read-only key (scope read) makes GET and HEAD calls only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    followSale: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sale_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A read-only key (scope read) makes GET and HEAD calls only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    unfollowSale: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sale_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A read-only key (scope read) makes GET and HEAD calls only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getMarketIndexChart: {
        parameters: {
            query?: {
                /** @description benchmarks to add; repeat the parameter or separate with commas */
                finance?: ("SNP500" | "GOLD" | "DOW_JONES" | "MSCI_WORLD_REAL_ESTATE" | "BITCOIN_USD")[];
                /** @description rebase every series to 100 at base_time (default true) */
                rebase?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GlobalArtIndexChartResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAuctionHouses: {
        parameters: {
            query?: {
                /** @description case-insensitive substring of the name */
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuctionHouseSchema"][];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAuctionLocations: {
        parameters: {
            query?: {
                /** @description case-insensitive substring of the name */
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listCategories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategorySchema"][];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listCurrencies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CurrencySchema"][];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listMaterials: {
        parameters: {
            query?: {
                /** @description case-insensitive substring of the name */
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VocabularyItemSchema"][];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listSubstrates: {
        parameters: {
            query?: {
                /** @description case-insensitive substring of the name */
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VocabularyItemSchema"][];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listSurfaces: {
        parameters: {
            query?: {
                /** @description case-insensitive substring of the name */
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VocabularyItemSchema"][];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listDamages: {
        parameters: {
            query?: {
                /** @description case-insensitive substring of the name */
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VocabularyItemSchema"][];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanSchema"][];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description ISO 8601 date; default the start of the current period */
                from?: string;
                /** @description ISO 8601 date; default today */
                to?: string;
                /** @description key: what each of the user's keys spent (they all draw on one pool) */
                group_by?: "day" | "week" | "month" | "endpoint" | "key";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignInBody"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description DU cost of this call; only when a valid bearer key is sent */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    signOut: {
        parameters: {
            query?: {
                /** @description end every session of the user */
                everywhere?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSignInMethods: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description DU cost of this call; only when a valid bearer key is sent */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignInMethods"];
                };
            };
        };
    };
    setPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetPasswordBody"];
            };
        };
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description DU cost of this call; only when a valid bearer key is sent */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period; only when a valid bearer key is sent */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    listKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyList"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateKeyBody"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedKey"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rotateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedKey"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminListUsers: {
        parameters: {
            query?: {
                /** @description the `next_cursor` of the page before */
                cursor?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is not an admin, or a session's call without its CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminCreateUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserBody"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserWithLink"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is not an admin, or a session's call without its CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminGetUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountUser"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is not an admin, or a session's call without its CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminUpdateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchUserBody"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserWithLink"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is not an admin, or a session's call without its CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminListUserKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyList"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is not an admin, or a session's call without its CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminRevokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: number;
                key_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is not an admin, or a session's call without its CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUsage"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is not an admin, or a session's call without its CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminAudit: {
        parameters: {
            query?: {
                /** @description the `next_cursor` of the page before */
                cursor?: string;
                user_id?: number;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPage"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller is not an admin, or a session's call without its CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    countUnreadNotifications: {
        parameters: {
            query?: {
                /** @description an event id (evt_…) */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationsUnread"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listNotifications: {
        parameters: {
            query?: {
                type?: "lot.consigned" | "lot.sold" | "lot.passed" | "lot.withdrawn" | "sale.results_published" | "artwork.estimate_changed" | "artist.index_moved";
                type__in?: ("lot.consigned" | "lot.sold" | "lot.passed" | "lot.withdrawn" | "sale.results_published" | "artwork.estimate_changed" | "artist.index_moved")[];
                /** @description only events from this time on (ISO 8601) */
                since?: string;
                /** @description the `next_cursor` of the page before */
                cursor?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPage"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookBody"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchWebhookBody"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestSent"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description the `next_cursor` of the page before */
                cursor?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: number;
                delivery_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A session's call that changes something without its CSRF token (X-CSRF-Token), or a read-only key's write */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listCollectables: {
        parameters: {
            query?: {
                /** @description artist_id equals */
                artist_id?: number;
                /** @description artist_id any of (repeat the parameter or separate with commas) */
                artist_id__in?: number[];
                /** @description artist_name case-insensitive substring of; the artist's name in the market */
                artist_name__ilike?: string;
                /** @description category_id equals */
                category_id?: number;
                /** @description category_id any of (repeat the parameter or separate with commas) */
                category_id__in?: number[];
                /** @description title case-insensitive substring of */
                title__ilike?: string;
                /** @description value greater than or equal to; current_estimated_price (USD), the value in effect; records without a value never match */
                value__gte?: number;
                /** @description value less than or equal to; current_estimated_price (USD), the value in effect; records without a value never match */
                value__lte?: number;
                /** @description creation_year equals */
                creation_year?: number;
                /** @description creation_year greater than or equal to */
                creation_year__gte?: number;
                /** @description creation_year less than or equal to */
                creation_year__lte?: number;
                /** @description edition_unique_type equals */
                edition_unique_type?: "unique" | "edition";
                /** @description created_at greater than or equal to */
                created_at__gte?: string;
                /** @description created_at less than or equal to */
                created_at__lte?: string;
                sort?: "CREATED_AT_ASC" | "CREATED_AT_DESC" | "VALUE_ASC" | "VALUE_DESC" | "ARTIST_NAME_ASC" | "ARTIST_NAME_DESC" | "TITLE_ASC" | "TITLE_DESC" | "CREATION_YEAR_ASC" | "CREATION_YEAR_DESC";
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectablesListResponse"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createCollectable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    artist_id: number;
                    category_id: number;
                    edition_unique_type: "unique" | "edition";
                    /** @description seeds title, year, measurements, materials, substrate, edition data and image from this market artwork */
                    suggested_artwork_id?: number;
                    title?: string;
                    creation_year?: number | null;
                    selected_price_type?: "machine" | "manual";
                    manual_price_value?: number | null;
                    condition?: string | null;
                    signature?: string | null;
                    current_location?: string | null;
                    measurements_unit?: "cm" | "in";
                    measurements_height?: number | null;
                    measurements_width?: number | null;
                    measurements_depth?: number | null;
                    edition_number?: number | null;
                    edition_size?: number | null;
                    /** @description GET /v1/materials */
                    material_ids?: number[];
                    /** @description GET /v1/substrates */
                    substrate_ids?: number[];
                    /** @description GET /v1/surfaces */
                    surface_ids?: number[];
                    /** @description GET /v1/damages */
                    damage_ids?: number[];
                    /**
                     * Format: binary
                     * @description the work's image
                     */
                    image?: Blob | File;
                };
                "application/json": {
                    artist_id: number;
                    category_id: number;
                    edition_unique_type: "unique" | "edition";
                    /** @description seeds title, year, measurements, materials, substrate, edition data and image from this market artwork */
                    suggested_artwork_id?: number;
                    title?: string;
                    creation_year?: number | null;
                    selected_price_type?: "machine" | "manual";
                    manual_price_value?: number | null;
                    condition?: string | null;
                    signature?: string | null;
                    current_location?: string | null;
                    measurements_unit?: "cm" | "in";
                    measurements_height?: number | null;
                    measurements_width?: number | null;
                    measurements_depth?: number | null;
                    edition_number?: number | null;
                    edition_size?: number | null;
                    /** @description GET /v1/materials */
                    material_ids?: number[];
                    /** @description GET /v1/substrates */
                    substrate_ids?: number[];
                    /** @description GET /v1/surfaces */
                    surface_ids?: number[];
                    /** @description GET /v1/damages */
                    damage_ids?: number[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectableSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not multipart/form-data, urlencoded or a JSON object (an uploaded file that is not a supported image is a 422) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCollectable: {
        parameters: {
            query?: {
                /** @description answers with the estimate values in effect on this day (YYYY-MM-DD): for audits and year-end valuations. From the first snapshot the service kept (earlier: 422); on or after the market's as-of date, the current values */
                as_of?: string;
            };
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectableSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteCollectable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectableDeleted"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateCollectable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CollectableUpdateInput"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectableSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    uploadCollectableImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description the work's image
                     */
                    image: Blob | File;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectableSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not multipart/form-data, urlencoded or a JSON object (an uploaded file that is not a supported image is a 422) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCollectableAcquisition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AcquiredSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateCollectableAcquisition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AcquiredUpdateInput"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AcquiredSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listCollectableAppraisals: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppraisalList"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    addCollectableAppraisal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppraisalCreateInput"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppraisalSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    removeCollectableAppraisal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
                appraisal_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectableDeleted"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateCollectableAppraisal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
                appraisal_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppraisalUpdateInput"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppraisalSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listCollectableProvenance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvenanceList"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    addCollectableProvenance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProvenanceCreateInput"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvenanceSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    removeCollectableProvenance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
                provenance_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectableDeleted"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateCollectableProvenance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
                provenance_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProvenanceUpdateInput"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvenanceSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listCollectableSales: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectableSaleList"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    addCollectableSale: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CollectableSaleCreateInput"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectableSaleSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    removeCollectableSale: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
                sale_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectableDeleted"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateCollectableSale: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
                sale_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CollectableSaleUpdateInput"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectableSaleSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCollectableComps: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompSetSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    replaceCollectableComps: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompSetInput"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompSetSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    clearCollectableComps: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                collectable_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the request's id: the client's X-Request-Id when it sent 1 to 128 safe characters, else a new one */
                    "X-Request-Id"?: string;
                    /** @description the id of the market snapshot that answered (as /readyz shows it); it changes when the server swaps to a newly published snapshot */
                    "X-Market-Snapshot"?: string;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    /** @description DU cost of this call */
                    "X-Service-DataUnits"?: number;
                    /** @description DU remaining in the current entitlement period */
                    "X-Service-DataUnits-Remaining"?: number;
                    /** @description last day of the current period */
                    "X-Service-DataUnits-Period-End"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompSetSchema"];
                };
            };
            /** @description No, malformed, unknown or revoked API key (the detail says which, and how to get a key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller's plan does not include this resource */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found, or not accessible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Request-rate limit exceeded, or the allowance of a plan with a hard cap is used up (Retry-After says when to retry) */
            429: {
                headers: {
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description the account's windows: "second";q=<rps>;w=1, "minute";q=<rpm>;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description the window nearest to running out: "<window>";r=<remaining>;t=<seconds to its reset> */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
}
