// The JSON the server sends, as the app's modules read it (JSDoc: `@param {GameView} g`).
// Written from the Rust structs that serialise it: crates/domain/src/view/mod.rs (the game
// object, hints, thinking, levels), view/online.rs (seats, clocks, chat, socket messages) and
// analysis.rs (reviews); docs/API.md describes the same. Global declarations (no import or
// export), outside assets/ so they are never served; only `tsc --noEmit` reads them.

/** `"black"` or `"white"` (virada_rules::Color). */
type Color = 'black' | 'white';
/** A square, `"a1"` .. `"h8"`. */
type SquareName = string;

/** `{"en": ..., "pt": ...}` (view::Text). */
interface Text {
  en: string;
  pt: string;
}

/** One entry of `GET /api/levels` (view::LevelView). */
interface LevelView {
  level: number;
  name: Text;
  description: Text;
  depth: number | null;
  exact_empties: number;
  max_move_seconds: number | null;
}

/** How a game started (view::StartView). */
interface StartView {
  kind: 'standard' | 'xot' | 'setup';
  board: string;
  side_to_move: Color;
  opening: string | null;
}

/** One move of a game, passes included (view::PlyView). */
interface PlyView {
  ply: number;
  color: Color;
  /** A square, or `"pass"`. */
  move: string;
  flipped: SquareName[];
  board: string;
  black_discs: number;
  white_discs: number;
}

/** view::ResultView. */
interface ResultView {
  winner: Color | null;
  black_score: number;
  white_score: number;
  black_discs: number;
  white_discs: number;
  wof_differs: boolean;
}

/** view::OpeningNameView. */
interface OpeningNameView {
  id: string;
  name: Text;
  ply: number;
}

/** model::online::TimeControl (tagged by `kind`). */
type TimeControl =
  | { kind: 'none' }
  | { kind: 'clock'; minutes: number; increment_seconds: number }
  | { kind: 'correspondence'; days: number };

/** view::online::Presence. */
type Presence = 'online' | 'reconnecting' | 'left' | 'none';

/** view::online::SeatView. */
interface SeatView {
  name: string | null;
  taken: boolean;
  presence: Presence;
  since: string | null;
}

/** view::online::SeatsView. */
interface SeatsView {
  black: SeatView;
  white: SeatView;
}

/** view::online::ClocksView. */
interface ClocksView {
  black_ms: number;
  white_ms: number;
  running: Color | null;
  server_time_ms: number;
  deadline_ms: number | null;
  /** When the game is aborted if the side to move makes no first move (two seated players). */
  abort_at_ms: number | null;
}

/** view::online::OffersView. */
interface OffersView {
  takeback: Color | null;
  rematch: Color | null;
}

/** view::online::ChatLineView. */
interface ChatLineView {
  n: number;
  from: Color;
  text: string;
  at: string;
}

/** view::online::EndView: `normal`, `time`, `resign`, `deadline` or `abort`. */
interface EndView {
  reason: 'normal' | 'time' | 'resign' | 'deadline' | 'abort';
  loser: Color | null;
}

/** The game object's `online` field (view::online::OnlineView). */
interface OnlineView {
  time_control: TimeControl;
  rated: boolean;
  seats: SeatsView;
  you: Color | null;
  phase: string;
  clocks: ClocksView | null;
  spectators: number;
  offers: OffersView;
  rematch_game: string | null;
  chat: ChatLineView[];
  end: EndView | null;
}

/** The game object (view::GameView), from the live channel and state-changing requests. */
interface GameView {
  id: string;
  version: number;
  created_at: string;
  updated_at: string;
  mode: 'computer' | 'friend' | 'online';
  level: number | null;
  human_color: Color | null;
  start: StartView;
  plies: PlyView[];
  redo: SquareName[];
  board: string;
  side_to_move: Color | null;
  legal_moves: SquareName[];
  black_discs: number;
  white_discs: number;
  empties: number;
  status: 'ongoing' | 'finished';
  computer_thinking: boolean;
  result: ResultView | null;
  transcript: string;
  online: OnlineView | null;
  time_control: TimeControl;
  clocks: ClocksView | null;
  end: EndView | null;
  opening_name: OpeningNameView | null;
  rated: boolean;
  /** A game record opened from a file or a link (read-only), with the players it names. */
  record: RecordNames | null;
}

/** The players a game record names (model::RecordNames). */
interface RecordNames {
  black: string | null;
  white: string | null;
}

/** One line of `GET /api/games` (view::GameSummary). */
interface GameSummary {
  id: string;
  created_at: string;
  updated_at: string;
  mode: 'computer' | 'friend' | 'online';
  level: number | null;
  human_color: Color | null;
  status: 'ongoing' | 'finished';
  black_discs: number;
  white_discs: number;
  ply_count: number;
  result: ResultView | null;
  end_reason?: string;
  black_name?: string;
  white_name?: string;
  transcript: string;
  opening_name: OpeningNameView | null;
}

/** view::HintMoveView. */
interface HintMoveView {
  square: SquareName;
  value: number;
  exact: boolean;
  best: boolean;
  book: boolean;
}

/** `POST /api/games/{id}/hint` (view::HintView). */
interface HintView {
  ply: number;
  moves: HintMoveView[];
  depth: number;
  complete: boolean;
}

/** The computer's progress (view::ThinkingView). */
interface ThinkingView {
  depth: number | null;
  best: string | null;
  value: number | null;
  elapsed_ms: number;
}

/** One explanation of a mistake (analysis::ExplanationView). */
interface ExplanationView {
  kind: string;
  squares: SquareName[];
  numbers: Record<string, number>;
  line: string[];
  /** The board the claim holds on: `ply` plies into the played or the better line (or before). */
  at: { line: 'before' | 'played' | 'best'; ply: number };
  text: Text;
}

/** One ply of a review (analysis::PlyAnalysisView). */
interface PlyAnalysisView {
  ply: number;
  number: number;
  color: Color;
  move: string;
  played_value: number;
  best_move: string;
  best_value: number;
  loss: number;
  exact: boolean;
  book: boolean;
  eval_black: number;
  best_line: string[];
  /** The played move, forced passes, then the opponent's best answers (the refutation). */
  played_line: string[];
  tags: string[];
  explanations: ExplanationView[];
}

/** `GET /api/games/{id}/analysis` (analysis::AnalysisView). */
interface AnalysisView {
  complete: boolean;
  plies: PlyAnalysisView[];
}

/** The body of an HTTP error, and the socket's `error` message (error.rs, ErrorMessage). */
interface ErrorBody {
  code: string;
  message: string;
  square?: SquareName;
  params?: Record<string, unknown>;
}

/** What the game socket sends (view::online: GameMessage, ChatMessage, PresenceMessage,
 *  ErrorMessage; `thinking` from the server's runtime/game/actor/engine.rs). */
type GameSocketMessage =
  | { type: 'game'; game: GameView }
  | { type: 'chat'; line: ChatLineView }
  | { type: 'presence'; seats: SeatsView; spectators: number }
  | ({ type: 'error'; ref?: number } & ErrorBody)
  | { type: 'thinking'; thinking: ThinkingView }
  | YourMoveMessage;

/** Another game of this browser waits for its move (runtime/notices.rs, YourMove). */
interface YourMoveMessage {
  type: 'your_move';
  game: string;
  opponent: string | null;
  ply: number;
}

// ---------- puzzles (the server's puzzles.rs) ----------

/** A solver's puzzle rating (SolverView). */
interface SolverView {
  rating: number;
  rd: number;
  attempts: number;
  solved: number;
}

/** A puzzle as the page shows it, without its solution (PuzzleView). */
interface PuzzleView {
  id: string;
  board: string;
  side_to_move: Color;
  kind: string;
  empties: number;
  themes: string[];
  rating: number;
  solver_moves: number;
  best_score: number;
  daily: string | null;
  result: 'solved' | 'failed' | null;
  solver: SolverView;
}

/** `GET /api/puzzles/me` (MeView). */
interface PuzzleMeView {
  solver: SolverView;
  themes: { theme: string; puzzles: number }[];
  puzzles: number;
}

/** The answer to an attempt (AttemptView). */
interface PuzzleAttemptView {
  result: 'continue' | 'solved' | 'wrong';
  reply: string[];
  wrong_move: number | null;
  refutation: string[];
  wrong_score: number | null;
  best_score: number;
  rated: boolean;
  solver: SolverView;
  puzzle_rating: number;
}

/** A puzzle hint (the server's puzzles::HintView). */
interface PuzzleHintView {
  region: SquareName[];
  square: SquareName | null;
  rated: boolean;
  solver: SolverView;
}

/** `GET /api/explorer`: Black's results of the tournament games through a position or move
 * (the server's explorer::ResultsView). */
interface ExplorerResultsView {
  games: number;
  black_wins: number;
  draws: number;
  white_wins: number;
  /** Black's average final disc difference (empties to the winner). */
  black_average: number;
  /** Black's score in percent (a draw counts half). */
  black_score: number;
}

/** The book's value of a position or move, for Black (explorer::BookValueView). */
interface ExplorerBookValue {
  black_value: number;
  depth: number;
  exact: boolean;
}

/** One move of the explorer's position (explorer::ExplorerMoveView). */
interface ExplorerMoveView {
  square: SquareName;
  /** Squares leading to the same position by the position's own symmetry. */
  same_as: SquareName[];
  /** `games` 0: a move only the book has. */
  results: ExplorerResultsView;
  /** The strongest players who chose it, by the Elo computed over the database (at most 3). */
  players: { name: string; elo: number; games: number }[];
  book: ExplorerBookValue | null;
  /** The name of the position the move reaches. */
  opening: { id: string; name: { en: string; pt: string } } | null;
}

/** `GET /api/explorer?line=...` (explorer::ExplorerView). */
interface ExplorerView {
  line: string;
  ply: number;
  board: string;
  side_to_move: Color | null;
  legal_moves: SquareName[];
  /** Whether the explorer holds the position (reached by at least `min_games` games). */
  known: boolean;
  min_games: number;
  max_plies: number;
  results: ExplorerResultsView;
  opening: OpeningNameView | null;
  book: ExplorerBookValue | null;
  moves: ExplorerMoveView[];
  source: string;
}

/** `POST /api/position`: the rules on a position that is no game (the server's PositionView). */
interface PositionView {
  start_board: string;
  start_side_to_move: Color;
  plies: PlyView[];
  board: string;
  side_to_move: Color | null;
  legal_moves: SquareName[];
  black_discs: number;
  white_discs: number;
  empties: number;
  status: 'ongoing' | 'finished';
  result: ResultView | null;
}

/** A seat of a listed game (profiles::SeatLine): its name, and the account holding it. */
interface SeatLineView {
  name: string | null;
  account: string | null;
}

/** `GET /api/watch/games`: one public game being played (watch::LiveLine). */
interface LiveGameLine {
  id: string;
  updated_at: string;
  time_control: TimeControl;
  category: string | null;
  rated: boolean;
  black: SeatLineView;
  white: SeatLineView;
  black_discs: number;
  white_discs: number;
  ply_count: number;
}

/** `GET /api/watch/leaders/{category}`: one line of a leaderboard. */
interface LeaderLine {
  rank: number;
  username: string;
  rating: number;
  deviation: number;
  games: number;
}

/** `GET /api/watch/online`. */
interface OnlineNow {
  count: number;
  players: string[];
}

/** `GET /api/watch/mine`: one of my games for the badge (watch::mine::MyLiveGame). */
interface MyLiveGame {
  id: string;
  kind: 'live' | 'correspondence';
  your_move: boolean;
  opponent: string | null;
  deadline: string | null;
}
