/** The market's image vector index, as the build writes it and the service reads it. */
import { EMBEDDING_DIMS } from "./embedding";
import { imageIndexSpec } from "./vector-index";

export const IMAGE_INDEX = imageIndexSpec(EMBEDDING_DIMS);
