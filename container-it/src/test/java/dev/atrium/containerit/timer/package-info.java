/** EJB timers: a programmatic timer of a singleton fires, and a timeout that rolls back is delivered again. */
package dev.atrium.containerit.timer;
