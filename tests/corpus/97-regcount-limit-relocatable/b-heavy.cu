// A function needing many registers.
__device__ __noinline__ int heavy(const int *p, int n)
{
    int a0=p[0],a1=p[1],a2=p[2],a3=p[3],a4=p[4],a5=p[5],a6=p[6],a7=p[7];
    int b0=p[8],b1=p[9],b2=p[10],b3=p[11],b4=p[12],b5=p[13],b6=p[14],b7=p[15];
    int c0=p[16],c1=p[17],c2=p[18],c3=p[19],c4=p[20],c5=p[21],c6=p[22],c7=p[23];
    int d0=p[24],d1=p[25],d2=p[26],d3=p[27],d4=p[28],d5=p[29],d6=p[30],d7=p[31];
    int e0=p[32],e1=p[33],e2=p[34],e3=p[35],e4=p[36],e5=p[37],e6=p[38],e7=p[39];
    for (int i = 0; i < n; ++i) {
        a0 = a0*b1 + c2; a1 = a1*b2 + c3; a2 = a2*b3+c4; a3=a3*b4+c5; a4=a4*b5+c6; a5=a5*b6+c7; a6=a6*b7+d0; a7=a7*b0+d1;
        b0 = b0*c1 + d2; b1 = b1*c2 + d3; b2 = b2*c3+d4; b3=b3*c4+d5; b4=b4*c5+d6; b5=b5*c6+d7; b6=b6*c7+e0; b7=b7*c0+e1;
        c0 = c0*d1 + e2; c1 = c1*d2 + e3; c2 = c2*d3+e4; c3=c3*d4+e5; c4=c4*d5+e6; c5=c5*d6+e7; c6=c6*d7+a0; c7=c7*d0+a1;
        d0 = d0*e1 + a2; d1 = d1*e2 + a3; d2 = d2*e3+a4; d3=d3*e4+a5; d4=d4*e5+a6; d5=d5*e6+a7; d6=d6*e7+b0; d7=d7*e0+b1;
        e0 = e0*a1 + b2; e1 = e1*a2 + b3; e2 = e2*a3+b4; e3=e3*a4+b5; e4=e4*a5+b6; e5=e5*a6+b7; e6=e6*a7+c0; e7=e7*a0+c1;
    }
    return a0+a1+a2+a3+a4+a5+a6+a7+b0+b1+b2+b3+b4+b5+b6+b7+c0+c1+c2+c3+c4+c5+c6+c7+d0+d1+d2+d3+d4+d5+d6+d7+e0+e1+e2+e3+e4+e5+e6+e7;
}
