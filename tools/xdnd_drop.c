// xdnd_drop.c -- drop a file onto an X11 window as a file manager does (the XDND protocol,
// version 5), for tests/play_xvfb.sh: xdotool moves and clicks but cannot drag a file.
//
//     xdnd_drop WINDOW_ID FILE
//
// The steps, from freedesktop.org's XDND specification: own the XdndSelection; send the
// target XdndEnter (offering text/uri-list), then XdndPosition; wait for its XdndStatus;
// send XdndDrop; answer the target's SelectionRequest with "file://FILE\r\n" in the
// property it names; wait for XdndFinished. Exits 0 when the target accepted and finished
// the drop, 1 with a message otherwise (5 s at most for each answer).
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Display *dpy;
static Window src, target;
static Atom a_enter, a_position, a_status, a_drop, a_finished, a_selection, a_uri, a_copy;

static void client_message(Atom type, long l1, long l2, long l3, long l4)
{
    XEvent e;
    memset(&e, 0, sizeof e);
    e.xclient.type = ClientMessage;
    e.xclient.display = dpy;
    e.xclient.window = target;
    e.xclient.message_type = type;
    e.xclient.format = 32;
    e.xclient.data.l[0] = (long)src;
    e.xclient.data.l[1] = l1;
    e.xclient.data.l[2] = l2;
    e.xclient.data.l[3] = l3;
    e.xclient.data.l[4] = l4;
    XSendEvent(dpy, target, False, NoEventMask, &e);
    XFlush(dpy);
}

// Next event, or 0 after 60 s without one (as long as every wait of tests/play_xvfb.sh: a
// window that is busy opening a demo on a loaded machine answers late).
static int next_event(XEvent *e)
{
    for (int waited = 0; !XPending(dpy); waited += 50) {
        if (waited >= 60000)
            return 0;
        struct pollfd p = {ConnectionNumber(dpy), POLLIN, 0};
        poll(&p, 1, 50);
    }
    XNextEvent(dpy, e);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: xdnd_drop WINDOW_ID FILE\n");
        return 2;
    }
    dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "xdnd_drop: cannot open the display\n");
        return 1;
    }
    target = (Window)strtoul(argv[1], NULL, 0);
    char uri[4200];
    snprintf(uri, sizeof uri, "file://%s\r\n", argv[2]);
    a_enter = XInternAtom(dpy, "XdndEnter", False);
    a_position = XInternAtom(dpy, "XdndPosition", False);
    a_status = XInternAtom(dpy, "XdndStatus", False);
    a_drop = XInternAtom(dpy, "XdndDrop", False);
    a_finished = XInternAtom(dpy, "XdndFinished", False);
    a_selection = XInternAtom(dpy, "XdndSelection", False);
    a_uri = XInternAtom(dpy, "text/uri-list", False);
    a_copy = XInternAtom(dpy, "XdndActionCopy", False);
    src = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, 0);
    XSetSelectionOwner(dpy, a_selection, src, CurrentTime);

    // the target's middle, in root coordinates
    XWindowAttributes wa;
    Window child;
    int rx = 0, ry = 0;
    if (!XGetWindowAttributes(dpy, target, &wa)) {
        fprintf(stderr, "xdnd_drop: no window 0x%lx\n", (unsigned long)target);
        return 1;
    }
    XTranslateCoordinates(dpy, target, DefaultRootWindow(dpy), wa.width / 2, wa.height / 2, &rx, &ry, &child);

    client_message(a_enter, 5L << 24, (long)a_uri, None, None);
    client_message(a_position, 0, (long)rx << 16 | ry, CurrentTime, (long)a_copy);
    int accepted = -1, finished = 0, dropped = 0;
    XEvent e;
    while (!finished) {
        if (!next_event(&e)) {
            fprintf(stderr, "xdnd_drop: no %s from the window\n",
                    accepted < 0 ? "XdndStatus" : dropped ? "XdndFinished" : "answer");
            return 1;
        }
        if (e.type == ClientMessage && e.xclient.message_type == a_status && accepted < 0) {
            accepted = (int)(e.xclient.data.l[1] & 1);
            if (!accepted) {
                fprintf(stderr, "xdnd_drop: the window refused text/uri-list\n");
                client_message(XInternAtom(dpy, "XdndLeave", False), 0, 0, 0, 0);
                return 1;
            }
            client_message(a_drop, 0, CurrentTime, 0, 0);
            dropped = 1;
        } else if (e.type == SelectionRequest) {
            XSelectionRequestEvent *r = &e.xselectionrequest;
            XEvent n;
            memset(&n, 0, sizeof n);
            n.xselection.type = SelectionNotify;
            n.xselection.display = dpy;
            n.xselection.requestor = r->requestor;
            n.xselection.selection = r->selection;
            n.xselection.target = r->target;
            n.xselection.time = r->time;
            n.xselection.property = None;
            if (r->target == a_uri && r->property != None) {
                XChangeProperty(dpy, r->requestor, r->property, a_uri, 8, PropModeReplace,
                                (const unsigned char *)uri, (int)strlen(uri));
                n.xselection.property = r->property;
            }
            XSendEvent(dpy, r->requestor, False, NoEventMask, &n);
            XFlush(dpy);
        } else if (e.type == ClientMessage && e.xclient.message_type == a_finished) {
            finished = 1;
        }
    }
    XCloseDisplay(dpy);
    return 0;
}
