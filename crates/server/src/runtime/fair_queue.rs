//! The order in which the engine pool starts waiting jobs (`pool`): by class first, then turn
//! about between clients.
//!
//! - **Classes** ([`Class`]): the computer's moves at quick levels, then its moves at the other
//!   levels, then hints and analyses. A waiting job of an earlier class always starts before
//!   one of a later class.
//! - **Clients.** Within a class every client (an address, or a browser for addresses exempt
//!   from limits: `engine_client`) has its own first-come-first-served line, and the lines are
//!   served in turn: one job of each client that has any waiting, then again. A client with
//!   many jobs waiting delays another client's job by at most one of its own per turn.
//!
//! The queue only orders; the pool decides what may enter (its caps) and which worker may take
//! which class.

use std::collections::{HashMap, VecDeque};

/// What a job is, in the order jobs start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The computer's move at a quick level (a person waits, and it takes milliseconds).
    QuickMove,
    /// The computer's move at a level that may search for seconds.
    Move,
    /// A hint or an analysis.
    Background,
}

impl Class {
    /// Every class, the most urgent first.
    pub const ALL: [Class; 3] = [Class::QuickMove, Class::Move, Class::Background];

    fn index(self) -> usize {
        self as usize
    }
}

/// One class's lines: a line per client, and the turn order of the clients with jobs waiting.
struct Lines<T> {
    by_client: HashMap<String, VecDeque<T>>,
    /// Clients with at least one job waiting, the one to serve next first.
    turn: VecDeque<String>,
    len: usize,
}

impl<T> Default for Lines<T> {
    fn default() -> Self {
        Lines {
            by_client: HashMap::new(),
            turn: VecDeque::new(),
            len: 0,
        }
    }
}

impl<T> Lines<T> {
    fn push(&mut self, client: &str, item: T) {
        let line = self.by_client.entry(client.to_string()).or_default();
        if line.is_empty() {
            self.turn.push_back(client.to_string());
        }
        line.push_back(item);
        self.len += 1;
    }

    #[cfg(test)]
    fn pop(&mut self) -> Option<T> {
        self.pop_eligible(&mut |_| true)
    }

    /// The next job of the first client in turn that `eligible` accepts; the clients skipped
    /// keep their places.
    fn pop_eligible(&mut self, eligible: &mut impl FnMut(&str) -> bool) -> Option<T> {
        let at = self.turn.iter().position(|c| eligible(c))?;
        let client = self.turn.remove(at)?;
        let line = self.by_client.get_mut(&client)?;
        let item = line.pop_front();
        if line.is_empty() {
            self.by_client.remove(&client);
        } else {
            self.turn.push_back(client);
        }
        if item.is_some() {
            self.len -= 1;
        }
        item
    }

    fn remove_where(&mut self, pred: &mut impl FnMut(&T) -> bool) -> Option<T> {
        let (client, i) = self
            .by_client
            .iter()
            .find_map(|(c, line)| line.iter().position(&mut *pred).map(|i| (c.clone(), i)))?;
        let line = self.by_client.get_mut(&client)?;
        let item = line.remove(i);
        if line.is_empty() {
            self.by_client.remove(&client);
            self.turn.retain(|c| *c != client);
        }
        if item.is_some() {
            self.len -= 1;
        }
        item
    }

    fn waiting_of(&self, client: &str) -> usize {
        self.by_client.get(client).map_or(0, VecDeque::len)
    }
}

/// Waiting jobs by class and client (see the module documentation).
pub struct FairQueue<T> {
    classes: [Lines<T>; 3],
}

impl<T> Default for FairQueue<T> {
    fn default() -> Self {
        FairQueue {
            classes: Default::default(),
        }
    }
}

impl<T> FairQueue<T> {
    /// Puts `item` at the end of `client`'s line in `class`.
    pub fn push(&mut self, class: Class, client: &str, item: T) {
        self.classes[class.index()].push(client, item);
    }

    /// The next job among the classes `allowed`: the most urgent class with a job waiting, the
    /// client whose turn it is in that class. The pool takes jobs through `pop_eligible`; the
    /// tests read the order through this.
    #[cfg(test)]
    pub fn pop(&mut self, allowed: &[Class]) -> Option<T> {
        Class::ALL
            .into_iter()
            .filter(|c| allowed.contains(c))
            .find_map(|c| self.classes[c.index()].pop())
    }

    /// [`FairQueue::pop`], skipping the clients `eligible` refuses in a class (e.g. a client
    /// that already has as many jobs of that class running as it may).
    pub fn pop_eligible(
        &mut self,
        allowed: &[Class],
        mut eligible: impl FnMut(Class, &str) -> bool,
    ) -> Option<T> {
        Class::ALL
            .into_iter()
            .filter(|c| allowed.contains(c))
            .find_map(|c| self.classes[c.index()].pop_eligible(&mut |client| eligible(c, client)))
    }

    /// Takes out the first waiting job `pred` accepts, wherever it waits.
    pub fn remove_where(&mut self, mut pred: impl FnMut(&T) -> bool) -> Option<T> {
        self.classes
            .iter_mut()
            .find_map(|lines| lines.remove_where(&mut pred))
    }

    /// Jobs waiting in `class`.
    pub fn len_of(&self, class: Class) -> usize {
        self.classes[class.index()].len
    }

    /// Jobs waiting in every class.
    pub fn len(&self) -> usize {
        self.classes.iter().map(|l| l.len).sum()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Jobs of `client` waiting in `class`.
    pub fn waiting_of(&self, class: Class, client: &str) -> usize {
        self.classes[class.index()].waiting_of(client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: &[Class] = &Class::ALL;

    fn drain(q: &mut FairQueue<&'static str>, allowed: &[Class]) -> Vec<&'static str> {
        std::iter::from_fn(|| q.pop(allowed)).collect()
    }

    #[test]
    fn clients_take_turns_within_a_class() {
        let mut q = FairQueue::default();
        // One client queues four expensive moves before another queues one.
        for job in ["a1", "a2", "a3", "a4"] {
            q.push(Class::Move, "A", job);
        }
        q.push(Class::Move, "B", "b1");
        q.push(Class::Move, "C", "c1");
        q.push(Class::Move, "B", "b2");
        assert_eq!(q.len(), 7);
        assert_eq!(q.waiting_of(Class::Move, "A"), 4);
        // B's first job waits behind one of A's, not four.
        assert_eq!(
            drain(&mut q, ALL),
            ["a1", "b1", "c1", "a2", "b2", "a3", "a4"]
        );
        assert!(q.is_empty());
    }

    #[test]
    fn quick_moves_then_moves_then_background() {
        let mut q = FairQueue::default();
        q.push(Class::Background, "A", "hint");
        q.push(Class::Move, "A", "level 21");
        q.push(Class::Move, "A", "level 20");
        q.push(Class::QuickMove, "B", "level 1");
        q.push(Class::Background, "B", "analysis");
        q.push(Class::QuickMove, "A", "level 5");
        assert_eq!(q.len_of(Class::QuickMove), 2);
        assert_eq!(
            drain(&mut q, ALL),
            ["level 1", "level 5", "level 21", "level 20", "hint", "analysis"]
        );
    }

    #[test]
    fn a_worker_takes_only_the_classes_it_is_allowed() {
        let mut q = FairQueue::default();
        q.push(Class::Move, "A", "level 21");
        q.push(Class::Background, "A", "hint");
        // The quick lane finds nothing to do...
        assert_eq!(q.pop(&[Class::QuickMove]), None);
        q.push(Class::QuickMove, "B", "level 1");
        // ...until a quick move comes, which it takes ahead of older expensive jobs.
        assert_eq!(q.pop(&[Class::QuickMove]), Some("level 1"));
        assert_eq!(q.pop(&[Class::QuickMove]), None);
        assert_eq!(drain(&mut q, ALL), ["level 21", "hint"]);
    }

    #[test]
    fn a_client_refused_keeps_its_place() {
        let mut q = FairQueue::default();
        q.push(Class::Background, "A", "a1");
        q.push(Class::Background, "A", "a2");
        q.push(Class::Background, "B", "b1");
        q.push(Class::Move, "C", "c1");
        // A may not start another background job: B's goes first, the move before both.
        let not_a = |c: Class, client: &str| c != Class::Background || client != "A";
        assert_eq!(q.pop_eligible(ALL, not_a), Some("c1"));
        assert_eq!(q.pop_eligible(ALL, not_a), Some("b1"));
        assert_eq!(q.pop_eligible(ALL, not_a), None);
        assert_eq!(q.len(), 2);
        // Allowed again, A's jobs come in their order.
        assert_eq!(drain(&mut q, ALL), ["a1", "a2"]);
    }

    #[test]
    fn removing_a_waiting_job_keeps_the_others_in_order() {
        let mut q = FairQueue::default();
        q.push(Class::Move, "A", "a1");
        q.push(Class::Move, "B", "b1");
        q.push(Class::Move, "A", "a2");
        q.push(Class::Move, "C", "c1");
        assert_eq!(q.remove_where(|j| *j == "b1"), Some("b1"));
        assert_eq!(q.remove_where(|j| *j == "b1"), None);
        assert_eq!(q.waiting_of(Class::Move, "B"), 0);
        assert_eq!(q.len(), 3);
        assert_eq!(drain(&mut q, ALL), ["a1", "c1", "a2"]);
        // A client whose last job left is no longer served in turn.
        q.push(Class::Move, "A", "a3");
        assert_eq!(q.remove_where(|j| *j == "a3"), Some("a3"));
        assert!(q.is_empty());
        assert_eq!(drain(&mut q, ALL), Vec::<&str>::new());
    }
}
