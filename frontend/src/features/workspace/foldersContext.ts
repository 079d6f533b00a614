import { createContext, useContext } from 'react';
import { createFoldersApi, type FoldersApi } from './foldersApi';

/** The folder API of the new-task composer: the page's transport, or a fake in tests. */
const FoldersApiContext = createContext<FoldersApi>(createFoldersApi());

export const FoldersApiProvider = FoldersApiContext.Provider;

export function useFoldersApi(): FoldersApi {
  return useContext(FoldersApiContext);
}
