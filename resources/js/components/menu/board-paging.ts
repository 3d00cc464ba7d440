/** How long a page of the menu board stays on the screen when an area needs more than one (seconds). */
export const PAGE_SECONDS = 12;
