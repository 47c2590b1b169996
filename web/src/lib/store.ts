import { createStore } from 'jotai';

/** The one jotai store of the app, so non-React code (auth, socket) can read and write atoms. */
export const appStore = createStore();
