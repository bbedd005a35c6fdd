import { createContext, useContext, useMemo, useReducer, type ReactNode } from 'react';
import type { QueueEntry, ReportItem, ReportMerchant, Receipt } from '@receipts/core/entities';
import {
  clearStoredSession,
  readStoredPushToken,
  readStoredSession,
  storePushToken,
  storeSession,
} from '../lib/session-storage';

/** The receipt, its merchant and its items, as the receipt screen and the JSON viewer show them. */
export interface AnalysisResultState {
  receipt: Receipt;
  merchant: ReportMerchant | null;
  items: ReportItem[];
}

/** A message bar fixed at the bottom of the screen (spec §4); it survives navigation. */
export interface AppMessage {
  intent: 'success' | 'error' | 'warning' | 'info';
  title: string;
  /** The server's own words, when there are any. */
  detail?: string;
  /** Where to go next about it (e.g. the receipt a duplicate is of). */
  link?: { to: string; label: string };
}

/**
 * The shared app state of spec §3. The app data itself and its loading flag live in the TanStack Query
 * cache (see lib/app-data.ts): asking for a reload there is what the spec's `loading = true` does.
 */
export interface AppState {
  userId: string | null;
  userEmail: string | null;
  userName: string | null;
  signedIn: boolean;
  /** The pending scans (the queue as last seen, plus uploads not yet seen in it). */
  scanning: QueueEntry[];
  analysisResult: AnalysisResultState | null;
  newReport: boolean;
  fcmToken: string | null;
  message: AppMessage | null;
}

type Action =
  | { type: 'signedIn'; userId: string; userEmail: string; userName: string | null }
  | { type: 'userName'; userName: string | null }
  | { type: 'signedOut' }
  | { type: 'scanning'; entries: QueueEntry[] }
  | { type: 'scanAdded'; entry: QueueEntry }
  | { type: 'analysisResult'; value: AnalysisResultState | null }
  | { type: 'newReport'; value: boolean }
  | { type: 'fcmToken'; value: string | null }
  | { type: 'message'; value: AppMessage | null };

function reducer(state: AppState, action: Action): AppState {
  switch (action.type) {
    case 'signedIn':
      return {
        ...state,
        // A message meant for the previous person (e.g. their account's deletion) is not shown to the next.
        message: state.userId === action.userId ? state.message : null,
        signedIn: true,
        userId: action.userId,
        userEmail: action.userEmail,
        userName: action.userName,
      };
    case 'userName':
      return { ...state, userName: action.userName };
    case 'signedOut':
      return {
        ...state,
        signedIn: false,
        userId: null,
        userEmail: null,
        userName: null,
        scanning: [],
        analysisResult: null,
        newReport: false,
        fcmToken: null,
      };
    case 'scanning':
      return { ...state, scanning: action.entries };
    case 'scanAdded':
      return {
        ...state,
        scanning: [...state.scanning.filter((e) => e.fileName !== action.entry.fileName), action.entry],
      };
    case 'analysisResult':
      return { ...state, analysisResult: action.value };
    case 'newReport':
      return { ...state, newReport: action.value };
    case 'fcmToken':
      return { ...state, fcmToken: action.value };
    case 'message':
      return { ...state, message: action.value };
  }
}

/** The state a fresh page load starts from: the session is restored from the stored user id. */
export function initialAppState(): AppState {
  const session = readStoredSession();
  return {
    userId: session?.userId ?? null,
    userEmail: session?.userEmail ?? null,
    userName: null,
    signedIn: session !== null,
    scanning: [],
    analysisResult: null,
    newReport: false,
    fcmToken: readStoredPushToken(),
    message: null,
  };
}

export interface AppActions {
  /** Records a successful sign-in in the state and in local storage. */
  signIn(user: { userId: string; userEmail: string; userName: string | null }): void;
  setUserName(name: string | null): void;
  /** Forgets the session, the stored keys and the push token. */
  signOut(): void;
  setScanning(entries: QueueEntry[]): void;
  addScan(entry: QueueEntry): void;
  setAnalysisResult(value: AnalysisResultState | null): void;
  setNewReport(value: boolean): void;
  setFcmToken(token: string): void;
  showMessage(message: AppMessage): void;
  dismissMessage(): void;
}

const StateContext = createContext<AppState | null>(null);
const ActionsContext = createContext<AppActions | null>(null);

export function AppStateProvider({
  children,
  initial,
}: {
  children: ReactNode;
  initial?: Partial<AppState>;
}) {
  const [state, dispatch] = useReducer(reducer, undefined, () => ({ ...initialAppState(), ...initial }));
  const actions = useMemo<AppActions>(
    () => ({
      signIn(user) {
        storeSession({ userId: user.userId, userEmail: user.userEmail });
        dispatch({ type: 'signedIn', ...user });
      },
      setUserName(userName) {
        dispatch({ type: 'userName', userName });
      },
      signOut() {
        clearStoredSession();
        dispatch({ type: 'signedOut' });
      },
      setScanning(entries) {
        dispatch({ type: 'scanning', entries });
      },
      addScan(entry) {
        dispatch({ type: 'scanAdded', entry });
      },
      setAnalysisResult(value) {
        dispatch({ type: 'analysisResult', value });
      },
      setNewReport(value) {
        dispatch({ type: 'newReport', value });
      },
      setFcmToken(token) {
        storePushToken(token);
        dispatch({ type: 'fcmToken', value: token });
      },
      showMessage(message) {
        dispatch({ type: 'message', value: message });
      },
      dismissMessage() {
        dispatch({ type: 'message', value: null });
      },
    }),
    [],
  );
  return (
    <ActionsContext.Provider value={actions}>
      <StateContext.Provider value={state}>{children}</StateContext.Provider>
    </ActionsContext.Provider>
  );
}

export function useAppState(): AppState {
  const state = useContext(StateContext);
  if (!state) throw new Error('useAppState must be used inside <AppStateProvider>.');
  return state;
}

export function useAppActions(): AppActions {
  const actions = useContext(ActionsContext);
  if (!actions) throw new Error('useAppActions must be used inside <AppStateProvider>.');
  return actions;
}
