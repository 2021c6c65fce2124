/**
 * Collectables: the caller's own records in account.db, valued against the current market. The
 * service is split by concern; this file gathers what the endpoints (index.ts) call.
 *
 * - crud.ts: list, create, update, delete;
 * - presentation.ts: loading the caller's collectable (404 otherwise) and the API's shape of it;
 * - children.ts: the acquisition, appraisals, provenance entries and private sales;
 * - comps.ts: the comp set;
 * - images.ts: uploads, their files and embeddings, and the market's image vectors;
 * - valuation.ts: the machine estimate, the value in effect, and valuing stored rows again;
 * - checks.ts: the checks of writes against the market (reference ids, dates, currencies).
 *
 * Every read and write is scoped by (collectable id, user id) through the account store
 * (src/serve/accounts/store.ts): another user's record is simply not found (404), the same as a
 * record that does not exist. Children are reached through their collectable (child id and
 * collectable id together). Writes check everything first (types, dates, currencies, reference ids
 * in market.db) and then change the database in one transaction, so a refused write leaves the
 * stored record as it was.
 *
 * The machine estimate is kept on the row (machine_estimate_usd, with the market snapshot it was
 * computed on in valued_on) so that lists can filter and sort by value in SQL; a row valued on
 * another snapshot is valued again before it is read.
 */
export { addChild, CHILDREN, type ChildName, deleteChild, getAcquisition, listChildren, updateAcquisition, updateChild } from "./children";
export { type CompIn, getComps, replaceComps } from "./comps";
export { type ArtworkSeed, checkCreate, createCollectable, type CreateInput, deleteCollectable, listCollectables, updateCollectable } from "./crud";
export { cosine, imageIndex, removeImage, replaceImage, storeImage, type StoredImage } from "./images";
export { getCollectable, ownCollectable, present, type PresentedCollectable } from "./presentation";
export { CURRENT_VALUE_SQL } from "./valuation";
