import { createContext, useContext } from 'react';

/**
 * Whether a composer drawn now may take the keyboard focus on its first draw (its message box, a
 * question's first option). The shell draws the session's view a frame after the list: if the
 * person has put the focus somewhere in that time, the composer leaves it there.
 */
export const TakeFocusContext = createContext(true);

export const useTakeFocus = () => useContext(TakeFocusContext);
